/**
 * Issue 19, tasks: "Tasks of one user are readable by another application of the same user."
 * Task ownership was the principal (`<issuer> <subject>`) only, so a second OAuth client of the
 * same person could `tasks/list`, `tasks/get`, `tasks/result` and `tasks/cancel` the first one's
 * tasks. A task now belongs to the issuer, subject and client together (the client from the
 * token's `client_id`, else `azp`), as an HTTP session does; in memory and in Redis. Real access
 * tokens from an OAuth provider (one user, two public clients), verified as JWTs by the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import {
  createHttpHandler,
  jwtVerifier,
  StreamableHttpClientTransport,
  type StreamableHttpHandler,
} from '../../src/http.js';
import { ErrorCode } from '../../src/index.js';
import { serveHttp, type HttpListener } from '../../src/node.js';
import { RedisTaskStore } from '../../src/redis.js';
import { McpServer } from '../../src/server.js';
import { ownerOf } from '../../src/server/tasks/taskOwner.js';
import type { TaskStore } from '../../src/tasks/taskStore.js';
import { identityOf } from '../../src/transports/http/server/auth/tokenVerifier.js';
import { startAuthServer, type TestAuthServer } from '../support/authServer.js';
import { freePort, startRedis, type TestRedis } from '../support/redis.js';

type Raw = {
  request: (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>;
};
const raw = (client: McpClient): Raw => (client as unknown as { connection: Raw }).connection;

let auth: TestAuthServer;
let redis: TestRedis;

beforeAll(async () => {
  [auth, redis] = await Promise.all([startAuthServer(), startRedis()]);
});
afterAll(async () => {
  await Promise.all([auth?.close(), redis?.stop()]);
});

/** A protected server whose `work` tool runs as a task, kept in `store`, on a loopback port. */
async function protectedServer(store: TaskStore | undefined): Promise<{
  resource: string;
  close: () => Promise<void>;
}> {
  const server = new McpServer(
    { name: 'owned-tasks', version: '1' },
    { tasks: store ? { store } : {} },
  );
  server.registerTool('work', { execution: { taskSupport: 'optional' } }, () => 'secret result');
  const port = await freePort();
  const resource = `http://127.0.0.1:${port}/mcp`;
  const handler: StreamableHttpHandler = createHttpHandler(server, {
    onerror: () => {},
    oauth: {
      resource,
      authorizationServers: [auth.issuer],
      scopes: ['mcp:tools'],
      allowLoopbackHttp: true,
      verifier: jwtVerifier({
        jwksUrl: auth.jwksUri,
        issuer: auth.issuer,
        allowLoopbackHttp: true,
      }),
    },
  });
  const listener: HttpListener = await serveHttp(handler, { port });
  return {
    resource,
    close: async () => {
      await handler.close({ graceMs: 0 });
      await listener.close();
      await store?.close();
    },
  };
}

async function clientWith(resource: string, token: string): Promise<McpClient> {
  const client = new McpClient({ name: 'app', version: '1' }, { protocolEra: 'legacy' });
  await client.connect(
    new StreamableHttpClientTransport(resource, { headers: { authorization: `Bearer ${token}` } }),
  );
  return client;
}

const unknownTask = {
  code: ErrorCode.InvalidParams,
  message: expect.stringMatching(/^Unknown task/),
};

for (const kind of ['memory', 'redis'] as const) {
  describe(`issue 19: a task belongs to the client that created it (${kind} store)`, () => {
    it('another application of the same user cannot list, read, fetch or cancel it', async () => {
      const store =
        kind === 'redis'
          ? await RedisTaskStore.connect({ url: redis.url, keyPrefix: `issue19-owner:` })
          : undefined;
      const served = await protectedServer(store);
      const clients: McpClient[] = [];
      try {
        const [one, two] = await Promise.all(
          ['app-one', 'app-two'].map((clientId) =>
            auth.authorizationCode({ clientId, user: 'alice', resource: served.resource }),
          ),
        );
        const first = await clientWith(served.resource, one as string);
        const second = await clientWith(served.resource, two as string);
        clients.push(first, second);

        const created = await raw(first).request('tools/call', {
          name: 'work',
          arguments: {},
          task: {},
        });
        const taskId = (created['task'] as { taskId: string }).taskId;
        expect(taskId).toMatch(/^[0-9a-f-]{36}$/);
        await first.taskResult(taskId); // ended: whatever follows does not race the run

        // The other application of alice: the task is not there at all.
        expect((await second.listTasks()).tasks).toEqual([]);
        for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel'])
          await expect(raw(second).request(method, { taskId })).rejects.toMatchObject(unknownTask);

        // The application that created it sees it, from another session too.
        const again = await clientWith(served.resource, one as string);
        clients.push(again);
        expect((await again.listTasks()).tasks.map((t) => t.taskId)).toEqual([taskId]);
        expect(await again.getTask(taskId)).toMatchObject({ taskId, status: 'completed' });
        expect(await again.taskResult(taskId)).toMatchObject({
          content: [{ type: 'text', text: 'secret result' }],
        });
      } finally {
        await Promise.all(clients.map((c) => c.close()));
        await served.close();
      }
    });
  });
}

describe('issue 19: the task owner of an identity', () => {
  const issuer = 'https://issuer.example';
  const verified = { issuer, subject: 'alice' };

  it('differs by client, whether the token names it in client_id or azp', () => {
    const owners = [
      identityOf({ client_id: 'app-one' }, verified),
      identityOf({ client_id: 'app-two' }, verified),
      identityOf({ azp: 'app-three' }, verified),
      identityOf({}, verified),
    ].map((identity) => ownerOf('session-1', identity));
    expect(new Set(owners).size).toBe(4);
    // The same client in another session, or with another token, is the same owner.
    expect(ownerOf('session-2', identityOf({ client_id: 'app-one', jti: 'x' }, verified))).toBe(
      owners[0],
    );
  });

  it('keeps the earlier rules for an identity without OAuth fields and for anonymous callers', () => {
    expect(ownerOf('s', { id: 'api-key-7' })).toBe('principal:api-key-7');
    expect(ownerOf('s', undefined)).toBe('session:s');
    // An id spelling the OAuth form is not an OAuth owner.
    const oauth = ownerOf('s', { id: 'a', issuer: 'i', subject: 'u', clientId: 'c' });
    expect(ownerOf('s', { id: oauth.slice(oauth.indexOf(':') + 1) })).not.toBe(oauth);
  });
});

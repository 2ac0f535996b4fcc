/**
 * Issue 19, tasks: "Lookups of one's own expired tasks count towards the unknown-id throttle (100
 * in a minute throttles the principal on all its sessions): an id that existed and expired is not
 * an enumeration attempt." The stores now remember the ids of expired tasks for their owner (an
 * hour, a bounded number): a requestor asking after its own expired tasks is told "Task ... has
 * expired" (-32602, as the spec's example) and is not counted; ids that never were, and someone
 * else's expired tasks, still are. In memory and in Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/index.js';
import { RedisTaskStore } from '../../src/redis.js';
import { McpServer } from '../../src/server.js';
import type { TaskStore } from '../../src/tasks/taskStore.js';
import { connect } from '../support/harness.js';
import { startRedis, type TestRedis } from '../support/redis.js';

type Raw = {
  request: (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>;
};
const raw = (c: { client: unknown }): Raw => (c.client as { connection: Raw }).connection;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const LIMIT = 5;

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

function lookupServer(store: TaskStore | undefined) {
  const reports: string[] = [];
  const server = new McpServer(
    { name: 'expired-lookups', version: '1' },
    {
      onerror: (error) => reports.push((error as Error).message),
      tasks: {
        ...(store ? { store } : {}),
        unknownTaskLookups: { limit: LIMIT, windowMs: 60_000 },
      },
    },
  );
  server.registerTool('quick', { execution: { taskSupport: 'optional' } }, () => 'done');
  return { server, reports };
}

async function createTask(c: { client: unknown }, ttl: number): Promise<string> {
  const created = await raw(c).request('tools/call', {
    name: 'quick',
    arguments: {},
    task: { ttl },
  });
  return (created['task'] as { taskId: string }).taskId;
}

for (const kind of ['memory', 'redis'] as const) {
  describe(`issue 19: lookups of one's own expired tasks (${kind} store)`, () => {
    it('are answered "has expired" and never throttle; unknown ids still do', async () => {
      const store =
        kind === 'redis'
          ? await RedisTaskStore.connect({ url: redis.url, keyPrefix: `issue19-expired:` })
          : undefined;
      const { server, reports } = lookupServer(store);
      try {
        const alice = await connect(server, { identity: { id: 'alice' } });
        const bob = await connect(server, { identity: { id: 'bob' } });
        const gone: string[] = [];
        for (let i = 0; i < 3 * LIMIT; i++) gone.push(await createTask(alice, 100));
        const live = await createTask(alice, 60_000);
        await sleep(400);

        // Three times the limit of lookups of alice's own expired tasks, by every method.
        const methods = ['tasks/get', 'tasks/result', 'tasks/cancel'];
        for (const [i, taskId] of gone.entries()) {
          await expect(
            raw(alice).request(methods[i % 3] as string, { taskId }),
          ).rejects.toMatchObject({
            code: ErrorCode.InvalidParams,
            message: `Task ${taskId} has expired`,
          });
        }
        expect(reports).toEqual([]);
        expect(await raw(alice).request('tasks/get', { taskId: live })).toMatchObject({
          taskId: live,
        });

        // Bob asking after alice's expired tasks is asking after unknown ids: counted, refused.
        for (const taskId of gone.slice(0, LIMIT))
          await expect(raw(bob).request('tasks/get', { taskId })).rejects.toMatchObject({
            code: ErrorCode.InvalidParams,
            message: expect.stringMatching(/^Unknown task/),
          });
        expect(reports).toEqual([expect.stringMatching(/^principal:bob asked for 5 unknown/)]);
        // ...and so are ids that never were, for alice too.
        for (let i = 0; i < LIMIT; i++)
          await expect(
            raw(alice).request('tasks/get', { taskId: crypto.randomUUID() }),
          ).rejects.toMatchObject({ message: expect.stringMatching(/^Unknown task/) });
        expect(reports).toHaveLength(2);
        await expect(raw(alice).request('tasks/get', { taskId: live })).rejects.toMatchObject({
          code: ErrorCode.RateLimited,
        });
      } finally {
        await server.close();
        await store?.close();
      }
    });
  });
}

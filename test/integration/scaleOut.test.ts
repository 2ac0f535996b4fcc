/**
 * Several `toolwire serve --http --redis` processes sharing one real redis-server, behind a
 * round-robin proxy on loopback with no stickiness: every request of a client may reach any
 * instance. Tasks, sessions, SSE resumption and list_changed across instances, and the faults:
 * an instance killed mid-task, Redis stopped during calls, a cancel racing a completion.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import { ErrorCode } from '../../src/index.js';
import { StreamableHttpClientTransport } from '../../src/http.js';
import { CLI, CLUSTER_SERVER, EVERYTHING } from '../support/paths.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { startRoundRobinProxy, type RoundRobinProxy } from '../support/roundRobinProxy.js';

interface Instance {
  readonly child: ChildProcess;
  readonly url: string;
  readonly pid: number;
  stderr: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function eventually<T>(
  probe: () => Promise<T>,
  ok: (t: T) => boolean,
  ms = 8000,
): Promise<T> {
  let value = await probe();
  for (const deadline = Date.now() + ms; !ok(value) && Date.now() < deadline;) {
    await sleep(25);
    value = await probe();
  }
  return value;
}

/** Starts one instance and waits for the line that says where it listens. */
async function startInstance(
  redisUrl: string,
  prefix: string,
  module = CLUSTER_SERVER,
): Promise<Instance> {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', module, '--http', '0', '--redis', redisUrl, '--redis-prefix', prefix],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CLUSTER_LEASE_MS: '900' } },
  );
  const instance = { child, url: '', pid: child.pid ?? 0, stderr: '' };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`instance did not start:\n${instance.stderr}`)),
      15_000,
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      instance.stderr += chunk.toString();
      const m = /serving \S+ on (http:\/\/127\.0\.0\.1:\d+)\/mcp as instance/.exec(instance.stderr);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`instance exited (${code}):\n${instance.stderr}`));
    });
  });
  instance.url = url;
  return instance;
}

let redis: TestRedis;
let instances: Instance[] = [];
let proxy: RoundRobinProxy;
const clients: McpClient[] = [];

beforeAll(async () => {
  redis = await startRedis();
  instances = await Promise.all([0, 1, 2].map(() => startInstance(redis.url, 'scale:')));
  proxy = await startRoundRobinProxy(instances.map((i) => i.url));
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  for (const i of instances) i.child.kill('SIGKILL');
  await redis?.stop();
});

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => {});
  proxy.pin = undefined;
});

async function connectClient(
  url: string,
  options: ConstructorParameters<typeof McpClient>[1] = {},
  standaloneStream = true,
): Promise<McpClient> {
  const client = new McpClient(
    { name: 'scale-test', version: '1' },
    { protocolEra: 'legacy', ...options },
  );
  await client.connect(
    new StreamableHttpClientTransport(`${url}/mcp`, { reconnectDelayMs: 20, standaloneStream }),
  );
  clients.push(client);
  return client;
}

const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

/** The `_meta` of a 2026 request that declares the tasks extension (and elicitation). */
const EXTENSION_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {
    elicitation: {},
    extensions: { 'io.modelcontextprotocol/tasks': {} },
  },
};

let posted = 0;
/** POSTs a 2026 request declaring the tasks extension straight to `url` (an instance or the proxy). */
function post2026(url: string, method: string, params: Record<string, unknown>) {
  return fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      'mcp-name': String(params['name'] ?? params['taskId']),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: ++posted,
      method,
      params: { ...params, _meta: EXTENSION_META },
    }),
  });
}

/** The result of a 2026 request (see {@link post2026}). */
async function result2026(url: string, method: string, params: Record<string, unknown>) {
  const response = await post2026(url, method, params);
  return ((await response.json()) as { result: Record<string, unknown> }).result;
}

describe('several instances behind a round-robin balancer', () => {
  it('serves one session from every instance', async () => {
    const client = await connectClient(proxy.url, {}, false);
    const pids = new Set<string>();
    for (let i = 0; i < 6; i++) pids.add(textOf(await client.callTool('whoami', {})));
    expect(pids).toEqual(new Set(instances.map((i) => `pid ${i.pid}`)));
  });

  it('2026 rounds of input cross instances (serve --redis shares the secret), and an approval is used once in all', async () => {
    // Asked on one instance, answered on the next: the state is signed with the shared secret.
    const asked: number[] = [];
    const client = await connectClient(proxy.url, {
      protocolEra: 'modern',
      handlers: {
        elicitation: () => {
          asked.push(1);
          return { action: 'accept', content: {} };
        },
      },
    });
    const pids = new Set<string>();
    for (let i = 0; i < 3; i++) pids.add(textOf(await client.callTool('approve')));
    expect(asked).toHaveLength(3);
    expect([...pids].every((p) => p.startsWith('approved on pid '))).toBe(true);
    // The approved retry replayed to each instance: spent everywhere (one Redis key).
    const post = (body: unknown) =>
      fetch(`${proxy.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'approve',
        },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ result: Record<string, unknown> }>);
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    };
    const first = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'approve', _meta: meta },
    });
    const [key] = Object.keys(first.result['inputRequests'] as object);
    const retry = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        name: 'approve',
        inputResponses: { [key!]: { action: 'accept', content: {} } },
        requestState: first.result['requestState'],
        _meta: meta,
      },
    };
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await post(retry)).result);
    expect(answers.filter((r) => r['isError'] !== true)).toHaveLength(1);
    expect(answers.filter((r) => r['isError'] === true)).toHaveLength(2);
  });

  it('an extension task created on one instance is answered through a second and read through a third, and a listen on the third hears it', async () => {
    const [first, second, third] = instances as [Instance, Instance, Instance];
    const created = await result2026(first.url, 'tools/call', {
      name: 'confirmJob',
      arguments: {},
    });
    expect(created['resultType']).toBe('task');
    const taskId = String(created['taskId']);
    // A listen on the third instance, for this task.
    const listen = await post2026(third.url, 'subscriptions/listen', {
      notifications: { taskIds: [taskId] },
    });
    // Read straight from the body (no pipe whose own promise could reject unheard at shutdown).
    const reader = listen.body!.getReader();
    const decoder = new TextDecoder();
    let heard = '';
    const hear = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        heard += decoder.decode(value, { stream: true });
      }
    })();
    const asking = await eventually(
      () => result2026(second.url, 'tasks/get', { taskId }),
      (t) => t['status'] === 'input_required',
    );
    expect(asking['inputRequests']).toEqual({
      go: {
        method: 'elicitation/create',
        params: { message: 'Go on?', requestedSchema: { type: 'object', properties: {} } },
      },
    });
    expect(
      await result2026(second.url, 'tasks/update', {
        taskId,
        inputResponses: { go: { action: 'accept', content: {} } },
      }),
    ).toMatchObject({ resultType: 'complete' });
    const done = await eventually(
      () => result2026(third.url, 'tasks/get', { taskId }),
      (t) => t['status'] === 'completed',
    );
    expect(done['result']).toMatchObject({
      content: [{ type: 'text', text: `accept in ${first.pid}` }],
    });
    await eventually(
      async () => heard,
      (text) => text.includes('"status":"completed"'),
    );
    expect(heard).toContain('notifications/subscriptions/acknowledged');
    expect(heard).toContain('"status":"input_required"');
    await reader.cancel();
    await hear.catch(() => {});
  }, 30_000);

  it('counts rate limits across the instances (serve --redis shares the store)', async () => {
    const client = await connectClient(proxy.url);
    const servedBy = new Set<string>();
    for (let i = 0; i < 3; i++) servedBy.add(textOf(await client.callTool('limited')));
    expect(servedBy.size).toBeGreaterThan(1); // the calls were spread over instances
    await expect(client.callTool('limited')).rejects.toMatchObject({
      code: ErrorCode.RateLimited,
      data: { limit: 'tool' },
    });
  });

  it('a task created through one instance is read, listed and its result fetched through the others', async () => {
    const client = await connectClient(proxy.url, {}, false);
    const statuses: string[] = [];
    const start = proxy.log.length;
    const result = await client.callTool(
      'job',
      { ms: 400 },
      { ontaskstatus: (t) => statuses.push(t.status) },
    );
    expect(textOf(result)).toMatch(/^done by \d+$/);
    expect(statuses[0]).toBe('working');
    // tools/call, tasks/get polls and tasks/result spread over all three instances.
    const served = new Set(proxy.log.slice(start).map((l) => l.instance));
    expect(served).toEqual(new Set([0, 1, 2]));
    const { tasks } = await client.listTasks();
    expect(tasks).toHaveLength(1);
    expect(tasks[0]?.status).toBe('completed');
  });

  it('a task cancelled through another instance stops where it runs and stays cancelled', async () => {
    const client = await connectClient(proxy.url, {}, false);
    const controller = new AbortController();
    let taskId: string | undefined;
    const call = client.callTool(
      'job',
      { ms: 5000 },
      { signal: controller.signal, ontaskstatus: (t) => (taskId ??= t.taskId) },
    );
    await eventually(
      async () => taskId,
      (id) => id !== undefined,
    );
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
    const task = await eventually(
      () => client.getTask(taskId as string),
      (t) => t.status === 'cancelled',
    );
    expect(task.status).toBe('cancelled');
    await sleep(200);
    expect((await client.getTask(taskId as string)).status).toBe('cancelled');
  });

  it('list_changed reaches clients connected to every instance, 2025 sessions and 2026 listen streams', async () => {
    const changed = [0, 0, 0, 0, 0, 0, 0];
    const direct = await Promise.all(
      instances.map((instance, i) =>
        connectClient(instance.url, { onToolsChanged: () => changed[i]!++ }),
      ),
    );
    // 2026-07-28 clients hear of changes on a subscriptions/listen stream: one on each instance,
    // and one through the balancer (its stream lands on whichever instance).
    const modern = await Promise.all(
      [...instances.map((instance) => instance.url), proxy.url].map((url, i) =>
        connectClient(url, { protocolEra: 'modern', onToolsChanged: () => changed[3 + i]!++ }),
      ),
    );
    await sleep(100); // the GET streams open
    await eventually(
      async () => modern.map((client) => client.listening),
      (listening) => listening.every(Boolean),
    );
    const before = (await direct[0]!.listTools()).some((t) => t.name === 'extra');
    await direct[1]!.callTool('toggle_extra', {});
    await eventually(
      async () => changed,
      (c) => c.every((n) => n > 0),
    );
    expect(changed.every((n) => n > 0)).toBe(true);
    for (const client of [...direct, ...modern]) {
      const names = (await client.listTools()).map((t) => t.name);
      expect(names.includes('extra')).toBe(!before);
    }
  });

  it('a response stream closed early is resumed on another instance with what was missed', async () => {
    const client = await connectClient(proxy.url, {}, false);
    const progress: number[] = [];
    const start = proxy.log.length;
    const result = await client.callTool(
      'streamed',
      {},
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(textOf(result)).toMatch(/^streamed by \d+$/);
    expect(progress).toEqual([1, 2]);
    const log = proxy.log.slice(start);
    const post = log.find((l) => l.method === 'POST');
    const resume = log.find((l) => l.method === 'GET' && l.lastEventId !== undefined);
    expect(resume).toBeDefined();
    expect(resume?.instance).not.toBe(post?.instance);
  });

  it('a cancel racing a completion from another instance ends in exactly one terminal state', async () => {
    const client = await connectClient(proxy.url, {}, false);
    for (let round = 0; round < 12; round++) {
      proxy.pin = round % 3;
      const created = await (
        client as unknown as {
          connection: { request: (m: string, p: unknown) => Promise<{ task: { taskId: string } }> };
        }
      ).connection.request('tools/call', { name: 'job', arguments: { ms: 60 }, task: {} });
      const taskId = created.task.taskId;
      proxy.pin = (round + 1) % 3;
      await sleep(40 + (round % 6) * 8); // around the completion, on both sides of it
      const cancel = await client.cancelTask(taskId).then(
        (t) => ({ ok: true as const, status: t.status }),
        (error: { code?: number }) => ({ ok: false as const, code: error.code }),
      );
      proxy.pin = (round + 2) % 3;
      const final = await eventually(
        () => client.getTask(taskId),
        (t) => t.status !== 'working',
      );
      if (cancel.ok) {
        expect(final.status).toBe('cancelled');
        await expect(client.taskResult(taskId)).rejects.toMatchObject({
          code: ErrorCode.InvalidParams,
        });
      } else {
        expect(cancel.code).toBe(ErrorCode.InvalidParams);
        expect(final.status).toBe('completed');
        expect(textOf(await client.taskResult(taskId))).toMatch(/^done by \d+$/);
      }
      await sleep(30);
      expect((await client.getTask(taskId)).status).toBe(final.status);
    }
  });
});

describe('the everything example on two instances', () => {
  it('a tool added through one instance appears, with list_changed, on the other', async () => {
    const pair = await Promise.all(
      [0, 1].map(() => startInstance(redis.url, 'every:', EVERYTHING)),
    );
    try {
      const changed = [0, 0];
      const [a, b] = await Promise.all(
        pair.map((instance, i) =>
          connectClient(instance.url, { onToolsChanged: () => changed[i]!++ }),
        ),
      );
      await sleep(100); // the GET streams open
      expect(textOf(await a!.callTool('add_tool', { name: 'shared' }))).toBe(
        'Registered dynamic_shared',
      );
      await eventually(
        async () => changed,
        (c) => c.every((n) => n > 0),
      );
      expect((await b!.listTools()).map((t) => t.name)).toContain('dynamic_shared');
      expect(textOf(await b!.callTool('dynamic_shared', {}))).toBe('I am dynamic_shared');
      await b!.callTool('toggle_tool', {});
      await eventually(
        async () => (await a!.listTools()).some((t) => t.name === 'toggled'),
        (present) => !present,
      );
      expect((await a!.listTools()).map((t) => t.name)).not.toContain('toggled');
    } finally {
      for (const instance of pair) instance.child.kill('SIGKILL');
    }
  }, 30_000);
});

describe('faults', () => {
  it('Redis stopped during calls: clear errors, no task id handed out, recovery once it is back', async () => {
    const client = await connectClient(proxy.url, {}, false);
    expect(textOf(await client.callTool('whoami', {}))).toMatch(/^pid/);
    await redis.stop();
    try {
      const outcomes: unknown[] = [];
      let taskIds = 0;
      for (let i = 0; i < 3; i++) {
        const error = await client
          .callTool('job', { ms: 10 }, { ontaskstatus: () => taskIds++ })
          .then(
            () => undefined,
            (e: { code?: number; message?: string }) => e,
          );
        // Each request reaches another instance (all serve the session already): the task
        // could not be stored, so the call fails with -32603 and no task id is handed out.
        expect(error).toBeDefined();
        outcomes.push(error?.code);
        expect(String(error?.message)).toMatch(/not created/);
      }
      expect(taskIds).toBe(0);
      expect(outcomes).toEqual([-32603, -32603, -32603]);
      // A new session cannot be recorded, so it is refused rather than half-created.
      await expect(connectClient(proxy.url, {}, false)).rejects.toMatchObject({
        code: ErrorCode.InternalError,
        message: expect.stringMatching(/session could not be stored/),
      });
    } finally {
      await redis.start();
    }
    // Redis came back empty (no persistence): sessions are re-created by the client on 404,
    // the instances reconnect by themselves, and tasks work again.
    const recovered = await eventually(
      () => connectClient(proxy.url, {}, false).catch(() => undefined),
      (c) => c !== undefined,
      15_000,
    );
    expect(recovered).toBeDefined();
    const result = await eventually(
      () =>
        recovered!.callTool('job', { ms: 10 }).then(
          (r) => textOf(r),
          (e: Error) => `error: ${e.message}`,
        ),
      (text) => text.startsWith('done by'),
      15_000,
    );
    expect(result).toMatch(/^done by \d+$/);
    for (const instance of instances) expect(instance.child.exitCode).toBeNull();
  }, 40_000);

  it('an instance killed with SIGKILL while running a task: the task fails, the others serve on', async () => {
    const client = await connectClient(proxy.url, {}, false);
    const victim = 2;
    proxy.pin = victim;
    const created = await (
      client as unknown as {
        connection: { request: (m: string, p: unknown) => Promise<{ task: { taskId: string } }> };
      }
    ).connection.request('tools/call', { name: 'job', arguments: { ms: 60_000 }, task: {} });
    const taskId = created.task.taskId;
    // An extension task (2026) on the same instance.
    const extension = await result2026(instances[victim]!.url, 'tools/call', {
      name: 'job',
      arguments: { ms: 60_000 },
    });
    expect(extension['resultType']).toBe('task');
    instances[victim]!.child.kill('SIGKILL');
    proxy.remove(victim);
    proxy.pin = undefined;
    // The lease (900 ms) runs out; another instance's lease check fails the task.
    const task = await eventually(
      () => client.getTask(taskId),
      (t) => t.status !== 'working',
      10_000,
    );
    expect(task.status).toBe('failed');
    expect(task.statusMessage).toMatch(/stopped before it finished/);
    await expect(client.taskResult(taskId)).rejects.toMatchObject({
      code: ErrorCode.InternalError,
    });
    // The extension's task fails the same way: failed, with the JSON-RPC error.
    const failed = await eventually(
      () => result2026(instances[0]!.url, 'tasks/get', { taskId: extension['taskId'] }),
      (t) => t['status'] !== 'working',
      10_000,
    );
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: ErrorCode.InternalError, message: expect.stringMatching(/stopped before/) },
    });
    for (let i = 0; i < 4; i++) expect(textOf(await client.callTool('whoami', {}))).toMatch(/^pid/);
  }, 30_000);
});

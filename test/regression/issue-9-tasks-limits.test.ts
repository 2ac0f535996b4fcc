/**
 * Issue 9, "Tasks escape every limit": a task-augmented call is answered at once, so it never
 * counted against the in-flight cap, and one session started 10,000 concurrent 60-second
 * handlers (3,000 `long_running` tasks on the shipped example). Now a requestor has at most
 * `maxTasksPerRequestor` unfinished tasks (counted by the store: across instances with Redis), a
 * process runs at most `maxRunningTasks` handlers, beyond either the call is refused with -32000,
 * and a handler whose task expired is aborted (its result could never be fetched).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import { ErrorCode } from '../../src/index.js';
import { McpServer, type TaskOptions } from '../../src/server.js';
import { StdioClientTransport } from '../../src/stdio.js';
import { RedisTaskStore } from '../../src/stores/redisTaskStore.js';
import { connect } from '../support/harness.js';
import { EVERYTHING } from '../support/paths.js';
import { startRedis, type TestRedis } from '../support/redis.js';

type Raw = {
  request: (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>;
};
const raw = (c: { client: unknown }): Raw => (c.client as { connection: Raw }).connection;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A server whose `wait` tool runs for a minute (like the audit's handlers) unless aborted. */
function minuteServer(tasks: TaskOptions) {
  const aborted: string[] = [];
  const server = new McpServer({ name: 'limits', version: '1' }, { onerror: () => {}, tasks });
  server.registerTool('wait', { execution: { taskSupport: 'required' } }, (_args, ctx) => {
    return new Promise<string>((resolve) => {
      const timer = setTimeout(() => resolve('a minute passed'), 60_000);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        aborted.push(String((ctx.signal.reason as Error | undefined)?.message));
        resolve('aborted');
      });
    });
  });
  return { server, aborted };
}

const startWait = (c: { client: unknown }, ttl = 60_000) =>
  raw(c).request('tools/call', { name: 'wait', arguments: {}, task: { ttl } });

/** Fires `count` task-augmented calls side by side; the created tasks and the refusals. */
async function burst(c: { client: unknown }, count: number) {
  const settled = await Promise.allSettled(Array.from({ length: count }, () => startWait(c)));
  const created = settled.flatMap((r) =>
    r.status === 'fulfilled' ? [(r.value['task'] as { taskId: string }).taskId] : [],
  );
  const refused = settled.flatMap((r) =>
    r.status === 'rejected' ? [r.reason as { code: number; message: string }] : [],
  );
  return { created, refused };
}

describe('issue 9: tasks are bounded per requestor and per process', () => {
  it('one session gets at most maxTasksPerRequestor unfinished tasks; the rest are refused with -32000', async () => {
    const { server } = minuteServer({ maxTasksPerRequestor: 5 });
    try {
      const c = await connect(server);
      const { created, refused } = await burst(c, 20);
      expect(created).toHaveLength(5);
      expect(refused).toHaveLength(15);
      for (const error of refused) {
        expect(error.code).toBe(ErrorCode.ServerBusy);
        expect(error.message).toMatch(/at most 5 per requestor; retry once one has ended/);
      }
      // Another requestor is not affected; a task that ends frees a place.
      expect((await burst(await connect(server), 1)).created).toHaveLength(1);
      await c.client.cancelTask(created[0] as string);
      expect((await burst(c, 3)).created).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('the process runs at most maxRunningTasks handlers, whoever asks', async () => {
    const { server } = minuteServer({ maxRunningTasks: 4 });
    try {
      const sessions = await Promise.all([connect(server), connect(server), connect(server)]);
      const outcomes = await Promise.all(sessions.map((c) => burst(c, 3)));
      expect(outcomes.flatMap((o) => o.created)).toHaveLength(4);
      const refused = outcomes.flatMap((o) => o.refused);
      expect(refused).toHaveLength(5);
      for (const error of refused) {
        expect(error).toMatchObject({
          code: ErrorCode.ServerBusy,
          message: expect.stringMatching(/running too many tasks \(at most 4\); retry later/),
        });
      }
    } finally {
      await server.close();
    }
  });

  it('a handler is aborted when its task expires, and its place is free again', async () => {
    const { server, aborted } = minuteServer({ maxTasksPerRequestor: 1 });
    try {
      const c = await connect(server);
      await startWait(c, 100);
      await expect(startWait(c)).rejects.toMatchObject({ code: ErrorCode.ServerBusy });
      for (let i = 0; i < 100 && aborted.length === 0; i++) await sleep(20);
      expect(aborted).toEqual(['The task expired before it finished']);
      expect((await burst(c, 1)).created).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('refuses settings that would block everything or nothing', () => {
    for (const tasks of [
      { maxTasksPerRequestor: 0 },
      { maxRunningTasks: -1 },
      { pollBurst: 0.5 },
      { unknownTaskLookups: { limit: 0, windowMs: 1000 } },
      { unknownTaskLookups: { limit: 5, windowMs: Number.NaN } },
    ])
      expect(() => new McpServer({ name: 'x', version: '1' }, { tasks })).toThrow(
        /^tasks\.\S+ must be a positive integer/,
      );
  });

  it('the shipped example: 110 long_running tasks from one session, 100 accepted (the default)', async () => {
    const client = new McpClient({ name: 'audit', version: '1' }, { protocolEra: 'legacy' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [EVERYTHING] }),
    );
    try {
      const connection = (client as unknown as { connection: Raw }).connection;
      const settled = await Promise.allSettled(
        Array.from({ length: 110 }, () =>
          connection.request('tools/call', {
            name: 'long_running',
            arguments: { steps: 6, delayMs: 10_000 },
            task: {},
          }),
        ),
      );
      const refused = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
      expect(settled.length - refused.length).toBe(100);
      expect(refused).toHaveLength(10);
      for (const error of refused) expect(error).toMatchObject({ code: ErrorCode.ServerBusy });
      // The process keeps serving.
      expect(await client.callTool('add', { a: 1, b: 2 })).toMatchObject({
        structuredContent: { sum: 3 },
      });
    } finally {
      await client.close();
    }
  });
});

describe('issue 9: with several instances on Redis the per-requestor limit is global', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis.stop();
  });

  it('one principal calling two instances gets at most maxTasksPerRequestor tasks in all', async () => {
    const stores = await Promise.all([
      RedisTaskStore.connect({ url: redis.url, keyPrefix: 'limits:' }),
      RedisTaskStore.connect({ url: redis.url, keyPrefix: 'limits:' }),
    ]);
    const instances = stores.map((store) => minuteServer({ store, maxTasksPerRequestor: 3 }));
    try {
      const sessions = await Promise.all(
        instances.map(({ server }) => connect(server, { identity: { id: 'alice' } })),
      );
      const outcomes = await Promise.all(sessions.map((c) => burst(c, 5)));
      expect(outcomes.flatMap((o) => o.created)).toHaveLength(3);
      expect(outcomes.flatMap((o) => o.refused)).toHaveLength(7);
      // Another principal on the same instances has its own count.
      const bob = await connect(instances[0]?.server as McpServer, { identity: { id: 'bob' } });
      expect((await burst(bob, 1)).created).toHaveLength(1);
    } finally {
      await Promise.all(instances.map(({ server }) => server.close()));
      await Promise.all(stores.map((s) => s.close()));
    }
  });
});

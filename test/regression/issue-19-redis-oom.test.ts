/**
 * Issue 19, Redis: "Tasks created while Redis refuses writes." With Redis over `maxmemory`
 * (policy `noeviction`: plain SET refused), a `create` with the per-requestor cap still created
 * the task: the create script's first write (ZREMRANGEBYSCORE, pruning the owner's expired
 * unfinished tasks) is one Redis allows under the memory limit, and Redis then lets the rest of
 * the script write. The script's first write is now one Redis refuses under the limit, so the
 * whole creation is refused: `create` rejects with a clear error and leaves no key behind, and
 * the `tools/call` that wanted a task gets -32603 and no task id. A real redis-server, private to
 * this file, filled until SET is refused.
 *
 * Issue 22 adds the 2026 round trips' shared state to it: an instance that starts while Redis is
 * full reads the signing secret the first one made, and an approval whose use cannot be recorded
 * is refused: the approved work does not run, and runs once the retry is sent again with memory
 * to spare.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/index.js';
import { z } from 'zod';
import { createRedisScaleOut, RedisTaskStore } from '../../src/redis.js';
import { McpServer } from '../../src/server.js';
import { connect } from '../support/harness.js';
import { startRedis, type TestRedis } from '../support/redis.js';

type Raw = {
  request: (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>;
};
const raw = (c: { client: unknown }): Raw => (c.client as { connection: Raw }).connection;

const PREFIX = 'oom:';

let redis: TestRedis;
let admin: Redis;

beforeAll(async () => {
  redis = await startRedis({ args: ['--maxmemory-policy', 'noeviction'] });
  admin = new Redis(redis.url, { maxRetriesPerRequest: 0 });
});
afterAll(async () => {
  admin?.disconnect();
  await redis?.stop();
});

async function usedMemory(): Promise<number> {
  const used = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))?.[1]);
  expect(used).toBeGreaterThan(0);
  return used;
}

/**
 * Sets a maxmemory just above what Redis uses now and writes until SET is refused; then puts the
 * limit a little below what is used, so that memory freed meanwhile (a client's buffer) does not
 * bring Redis back under it before the test writes.
 */
async function fillRedis(): Promise<void> {
  await admin.config('SET', 'maxmemory', String((await usedMemory()) + 256 * 1024));
  const value = 'x'.repeat(8 * 1024);
  for (let i = 0; i < 2000; i++) {
    const refused = await admin.set(`fill:${i}`, value).then(
      () => undefined,
      (error: unknown) => String(error),
    );
    if (refused === undefined) continue;
    expect(refused).toMatch(/OOM/);
    await admin.config('SET', 'maxmemory', String((await usedMemory()) - 64 * 1024));
    await expect(admin.set('one-more', 'x')).rejects.toThrow(/OOM/);
    return;
  }
  throw new Error('Redis never refused a write');
}

async function emptyRedis(): Promise<void> {
  await admin.config('SET', 'maxmemory', '0');
  await admin.flushall();
}

const taskKeys = () => admin.keys(`${PREFIX}*`);

describe('issue 19: a Redis over maxmemory (noeviction)', () => {
  it('refuses a task as a whole, with or without the per-owner cap, and leaves no key', async () => {
    const store = await RedisTaskStore.connect({ url: redis.url, keyPrefix: PREFIX });
    try {
      await fillRedis();
      for (const cap of [{ maxActivePerOwner: 100 }, {}]) {
        await expect(
          store.create({
            owner: 'alice',
            method: 'tools/call',
            ttl: 60_000,
            runner: 'runner-1',
            leaseMs: 30_000,
            ...cap,
          }),
        ).rejects.toThrow(/Redis is out of memory.*the task was not stored/);
      }
      expect(await taskKeys()).toEqual([]);
      // Memory to spare again: tasks are created as ever.
      await emptyRedis();
      const task = await store.create({
        owner: 'alice',
        method: 'tools/call',
        ttl: 60_000,
        maxActivePerOwner: 100,
      });
      expect(await store.get({ taskId: task.taskId, owner: 'alice' })).toMatchObject({
        status: 'working',
      });
    } finally {
      await emptyRedis();
      await store.close();
    }
  });

  it('answers the tools/call that wanted a task with -32603 and no task id', async () => {
    const store = await RedisTaskStore.connect({ url: redis.url, keyPrefix: PREFIX });
    const reports: Array<{ what: string; error: unknown }> = [];
    const server = new McpServer(
      { name: 'oom', version: '1' },
      { tasks: { store }, onerror: (error, what) => reports.push({ what, error }) },
    );
    let ran = 0;
    server.registerTool('work', { execution: { taskSupport: 'optional' } }, () => {
      ran++;
      return 'done';
    });
    try {
      const alice = await connect(server, { identity: { id: 'alice' } });
      await fillRedis();
      await expect(
        raw(alice).request('tools/call', { name: 'work', arguments: {}, task: {} }),
      ).rejects.toMatchObject({
        code: ErrorCode.InternalError,
        message: 'The task could not be stored, so it was not created; try again later',
      });
      expect(ran).toBe(0);
      expect(await taskKeys()).toEqual([]);
      // The operator hears why.
      expect(reports).toEqual([
        {
          what: 'task store',
          error: expect.objectContaining({
            message: expect.stringMatching(/Redis is out of memory/),
          }),
        },
      ]);
      await emptyRedis();
      const created = await raw(alice).request('tools/call', {
        name: 'work',
        arguments: {},
        task: {},
      });
      expect(created['task']).toMatchObject({ taskId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    } finally {
      await emptyRedis();
      await server.close();
      await store.close();
    }
  });

  it('2026 approvals: a new instance starts, and an approval that cannot be recorded is refused', async () => {
    const first = await createRedisScaleOut({ url: redis.url, keyPrefix: PREFIX });
    let second: Awaited<ReturnType<typeof createRedisScaleOut>> | undefined;
    const reports: string[] = [];
    const server = new McpServer(
      { name: 'oom26', version: '1' },
      { onerror: (error, what) => reports.push(`${what}: ${String(error)}`) },
    );
    const deleted: string[] = [];
    server.registerTool(
      'wipe',
      { inputSchema: z.object({ path: z.string() }), annotations: { destructiveHint: true } },
      async ({ path }, { confirm }) => {
        if (!(await confirm(`Delete ${path}?`))) return 'kept';
        deleted.push(path);
        return `deleted ${path}`;
      },
    );
    try {
      await fillRedis();
      // Another instance starting now reads the secret the first one made (no write needed).
      second = await createRedisScaleOut({ url: redis.url, keyPrefix: PREFIX });
      expect(second.inputRoundTrips.secret).toBe(first.inputRoundTrips.secret);
      server.useInputRoundTrips(second.inputRoundTrips);
      const META = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
      };
      const alice = await connect(server, { era: '2026' });
      const call = (params: Record<string, unknown>) =>
        raw(alice).request('tools/call', { ...params, _meta: META });
      const asked = await call({ name: 'wipe', arguments: { path: '/data' } });
      expect(asked['resultType']).toBe('input_required');
      const [key] = Object.keys(asked['inputRequests'] as object);
      const retry = {
        name: 'wipe',
        arguments: { path: '/data' },
        inputResponses: { [key!]: { action: 'accept', content: {} } },
        requestState: asked['requestState'],
      };
      const refused = await call(retry);
      expect(refused).toMatchObject({ isError: true, resultType: 'complete' });
      expect(JSON.stringify(refused['content'])).toMatch(/approval could not be recorded/);
      expect(deleted).toEqual([]);
      expect(reports).toEqual([expect.stringMatching(/^spent request states: .*OOM/)]);
      // Memory to spare again: the same approved retry goes through, once.
      await emptyRedis();
      expect(await call(retry)).toMatchObject({
        content: [{ type: 'text', text: 'deleted /data' }],
      });
      expect(await call(retry)).toMatchObject({ isError: true });
      expect(deleted).toEqual(['/data']);
    } finally {
      await emptyRedis();
      await server.close();
      await second?.close();
      await first.close();
    }
  });
});

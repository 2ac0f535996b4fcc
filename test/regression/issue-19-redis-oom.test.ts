/**
 * Issue 19, Redis: "Tasks created while Redis refuses writes." With Redis over `maxmemory`
 * (policy `noeviction`: plain SET refused), a `create` with the per-requestor cap still created
 * the task: the create script's first write (ZREMRANGEBYSCORE, pruning the owner's expired
 * unfinished tasks) is one Redis allows under the memory limit, and Redis then lets the rest of
 * the script write. The script's first write is now one Redis refuses under the limit, so the
 * whole creation is refused: `create` rejects with a clear error and leaves no key behind, and
 * the `tools/call` that wanted a task gets -32603 and no task id. A real redis-server, private to
 * this file, filled until SET is refused.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/index.js';
import { RedisTaskStore } from '../../src/redis.js';
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
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisTaskStore } from '../../src/stores/redisTaskStore.js';
import { TaskLimitError } from '../../src/tasks/taskStore.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { taskStoreContract } from './taskStoreContract.js';

let redis: TestRedis;
let n = 0;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
});

// Each test gets its own key prefix: tests stay independent on one server.
taskStoreContract('redis', () =>
  RedisTaskStore.connect({ url: redis.url, keyPrefix: `contract${++n}:` }),
);

describe('RedisTaskStore specifics', () => {
  it('leaves no key behind once its tasks expire but the ids it remembers, for an hour', async () => {
    const store = await RedisTaskStore.connect({ url: redis.url, keyPrefix: 'expiry:' });
    try {
      for (let i = 0; i < 5; i++)
        await store.create({
          owner: `o${i % 2}`,
          method: 'tools/call',
          ttl: 200,
          runner: 'r1',
          leaseMs: 100,
        });
      const done = await store.create({ owner: 'o0', method: 'tools/call', ttl: 200 });
      await store.transition({ taskId: done.taskId, to: 'completed' });
      expect(await redis.command('KEYS', 'expiry:*')).not.toBe('*0\r\n');
      await new Promise((r) => setTimeout(r, 500));
      // Only the owners' remembered ids of expired tasks (TaskStore.expired) are left, and they
      // expire an hour after the owner's last task did.
      const left = (await redis.command('KEYS', 'expiry:*'))
        .split('\r\n')
        .filter((l) => /^[^*$]/.test(l));
      expect(left.sort()).toEqual(['expiry:expired:o0', 'expiry:expired:o1']);
      for (const key of left) {
        const ms = Number(/^:(\d+)/.exec(await redis.command('PTTL', key))?.[1]);
        expect(ms).toBeGreaterThan(3_600_000 - 10_000);
        expect(ms).toBeLessThanOrEqual(3_600_000);
      }
    } finally {
      await store.close();
    }
  });

  it('a cancel and a completion racing from two processes end in exactly one terminal status', async () => {
    const a = await RedisTaskStore.connect({ url: redis.url, keyPrefix: 'race:' });
    const b = await RedisTaskStore.connect({ url: redis.url, keyPrefix: 'race:' });
    try {
      for (let round = 0; round < 20; round++) {
        const task = await a.create({ owner: 'x', method: 'tools/call', ttl: 60_000 });
        const [done, cancelled] = await Promise.all([
          a.transition({
            taskId: task.taskId,
            to: 'completed',
            outcome: { kind: 'result', result: { content: [] } },
          }),
          b.transition({ taskId: task.taskId, owner: 'x', to: 'cancelled' }),
        ]);
        expect([done.ok, cancelled.ok].filter(Boolean)).toHaveLength(1);
        const final = await b.get({ taskId: task.taskId, owner: 'x' });
        expect(final?.status).toBe(done.ok ? 'completed' : 'cancelled');
        expect(final?.outcome !== undefined).toBe(done.ok);
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('holds maxActivePerOwner across processes: of creations racing from two, exactly the limit succeed', async () => {
    const a = await RedisTaskStore.connect({ url: redis.url, keyPrefix: 'quota:' });
    const b = await RedisTaskStore.connect({ url: redis.url, keyPrefix: 'quota:' });
    try {
      const attempts = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? a : b).create({
            owner: 'x',
            method: 'tools/call',
            ttl: 60_000,
            maxActivePerOwner: 5,
          }),
        ),
      );
      const created = attempts.filter((r) => r.status === 'fulfilled');
      expect(created).toHaveLength(5);
      for (const r of attempts)
        if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(TaskLimitError);
      // A task ended through the other process frees a place for this one.
      const one = created[0] as PromiseFulfilledResult<{ taskId: string }>;
      await b.transition({ taskId: one.value.taskId, to: 'cancelled' });
      await a.create({ owner: 'x', method: 'tools/call', ttl: 60_000, maxActivePerOwner: 5 });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a tasks/list cursor from one process works on another; the shared secret expires', async () => {
    const a = await RedisTaskStore.connect({ url: redis.url, keyPrefix: 'cursor:' });
    const b = await RedisTaskStore.connect({ url: redis.url, keyPrefix: 'cursor:' });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++)
        ids.push((await a.create({ owner: 'x', method: 'tools/call', ttl: 60_000 })).taskId);
      const first = await a.list({ owner: 'x', limit: 2 });
      expect(first.nextCursor).toBeDefined();
      const second = await b.list({ owner: 'x', limit: 2, cursor: first.nextCursor });
      expect([...first.tasks, ...second.tasks].map((t) => t.taskId)).toEqual(ids.reverse());
      const ttl = Number(/:(\d+)/.exec(await redis.command('PTTL', 'cursor:cursor-secret'))?.[1]);
      expect(ttl).toBeGreaterThan(0);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('sees status changes made by another process', async () => {
    const a = await RedisTaskStore.connect({ url: redis.url, keyPrefix: 'pubsub:' });
    const b = await RedisTaskStore.connect({ url: redis.url, keyPrefix: 'pubsub:' });
    try {
      const task = await a.create({ owner: 'x', method: 'tools/call', ttl: 60_000 });
      const seen: string[] = [];
      const stop = await b.subscribe(task.taskId, (e) => seen.push(e.status));
      await a.transition({ taskId: task.taskId, to: 'input_required' });
      await a.transition({ taskId: task.taskId, to: 'cancelled' });
      for (let i = 0; i < 100 && seen.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
      stop();
      expect(seen).toEqual(['input_required', 'cancelled']);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('fails with a clear error while Redis is down, and works again once it is back', async () => {
    const store = await RedisTaskStore.connect({
      url: redis.url,
      keyPrefix: 'outage:',
      commandTimeoutMs: 500,
    });
    try {
      await redis.stop();
      await expect(
        store.create({ owner: 'x', method: 'tools/call', ttl: 60_000 }),
      ).rejects.toThrow();
      await redis.start();
      let created;
      for (let i = 0; i < 100 && !created; i++) {
        created = await store
          .create({ owner: 'x', method: 'tools/call', ttl: 60_000 })
          .catch(() => undefined);
        if (!created) await new Promise((r) => setTimeout(r, 50));
      }
      expect(created?.status).toBe('working');
    } finally {
      await store.close();
    }
  });

  it('refuses a connection it cannot make with a clear error', async () => {
    await redis.stop();
    try {
      await expect(
        RedisTaskStore.connect({ url: redis.url, commandTimeoutMs: 300 }),
      ).rejects.toThrow(/Could not connect to Redis/);
    } finally {
      await redis.start();
    }
  });
});

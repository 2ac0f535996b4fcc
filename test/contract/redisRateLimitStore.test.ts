import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorCode, RpcError } from '../../src/jsonrpc/errors.js';
import { createRedisScaleOut, RedisRateLimitStore } from '../../src/redis.js';
import { RateLimitPolicy } from '../../src/server/policy/rateLimitPolicy.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { rateLimitStoreContract } from './rateLimitStoreContract.js';

const HOUR = 3_600_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let redis: TestRedis;
let n = 0;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
});

/** The keys under `prefix`, sorted (from the raw RESP reply of KEYS). */
async function keysUnder(prefix: string): Promise<string[]> {
  const reply = await redis.command('KEYS', `${prefix}*`);
  return reply
    .split('\r\n')
    .filter((line) => line !== '' && !line.startsWith('*') && !line.startsWith('$'))
    .sort();
}

// Each test gets its own key prefix; `a` and `b` are two instances (connections) sharing it.
rateLimitStoreContract('redis', async () => {
  const keyPrefix = `contract${++n}:`;
  const a = await RedisRateLimitStore.connect({ url: redis.url, keyPrefix });
  const b = await RedisRateLimitStore.connect({ url: redis.url, keyPrefix });
  return { a, b, close: async () => void (await Promise.all([a.close(), b.close()])) };
});

describe('RedisRateLimitStore specifics', () => {
  it('leaves no key behind once buckets are full again and leases have ended', async () => {
    const store = await RedisRateLimitStore.connect({ url: redis.url, keyPrefix: 'idle:' });
    try {
      const rule = { limit: 2, windowMs: 100 };
      const admitted = await store.admit({
        buckets: [
          { key: 'global', rule },
          { key: 'tool:t:principal:alice', rule },
        ],
        slot: { key: 'running:principal:alice', max: 2, leaseMs: 150, retryAfterMs: 10 },
      });
      expect(admitted.allowed).toBe(true);
      expect(await keysUnder('idle:')).toEqual([
        'idle:rate:global',
        'idle:rate:running:principal:alice',
        'idle:rate:tool:t:principal:alice',
      ]);
      // Refused admissions write nothing.
      await store.admit({ buckets: [{ key: 'global', rule: { limit: 1, windowMs: HOUR } }] });
      const before = await redis.command('HGETALL', 'idle:rate:global');
      await store.admit({
        buckets: [
          { key: 'other', rule },
          { key: 'global', rule: { limit: 1, windowMs: HOUR } },
        ],
      });
      expect(await keysUnder('idle:rate:other')).toEqual([]);
      expect(await redis.command('HGETALL', 'idle:rate:global')).toBe(before);
      await redis.command('DEL', 'idle:rate:global');
      await sleep(400);
      expect(await keysUnder('idle:')).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("counts time on Redis's clock, not the instance's", async () => {
    const store = await RedisRateLimitStore.connect({ url: redis.url, keyPrefix: 'clock:' });
    const rule = { limit: 1, windowMs: HOUR };
    try {
      expect((await store.admit({ buckets: [{ key: 'k', rule }] })).allowed).toBe(true);
      // An instance whose clock runs two hours ahead refills nothing.
      const now = Date.now();
      const ahead = vi.spyOn(Date, 'now').mockReturnValue(now + 2 * HOUR);
      try {
        expect((await store.admit({ buckets: [{ key: 'k', rule }] })).allowed).toBe(false);
      } finally {
        ahead.mockRestore();
      }
    } finally {
      await store.close();
    }
  });

  it('frees the slots of an instance that went away without releasing them, when their leases end', async () => {
    const keyPrefix = 'crash:';
    const gone = await RedisRateLimitStore.connect({ url: redis.url, keyPrefix });
    const other = await RedisRateLimitStore.connect({ url: redis.url, keyPrefix });
    try {
      const slot = { key: 'running:principal:x', max: 1, leaseMs: 300, retryAfterMs: 1000 };
      expect((await gone.admit({ buckets: [], slot })).allowed).toBe(true);
      await gone.close(); // never releases
      expect((await other.admit({ buckets: [], slot })).allowed).toBe(false);
      let admitted = false;
      for (let i = 0; i < 50 && !admitted; i++) {
        await sleep(50);
        admitted = (await other.admit({ buckets: [], slot })).allowed;
      }
      expect(admitted).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('createRedisScaleOut gives every instance the same limits', async () => {
    const one = await createRedisScaleOut({ url: redis.url, keyPrefix: 'scale:' });
    const two = await createRedisScaleOut({ url: redis.url, keyPrefix: 'scale:' });
    try {
      const policy = (store: RedisRateLimitStore) =>
        new RateLimitPolicy({ perPrincipal: { limit: 3, windowMs: HOUR }, store });
      const [p1, p2] = [policy(one.rateLimitStore), policy(two.rateLimitStore)];
      const call = {
        identity: { id: 'alice' },
        clientAddress: undefined,
        toolName: 't',
        toolRule: undefined,
      };
      const outcomes = [];
      for (const p of [p1, p2, p1, p2]) outcomes.push((await p.check(call)).allowed);
      expect(outcomes).toEqual([true, true, true, false]);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('refuses calls with a clear -32603 while Redis is down, and admits again once it is back', async () => {
    const store = await RedisRateLimitStore.connect({
      url: redis.url,
      keyPrefix: 'outage:',
      commandTimeoutMs: 500,
    });
    const policy = new RateLimitPolicy({ perTool: { limit: 100, windowMs: HOUR }, store });
    const call = {
      identity: undefined,
      clientAddress: '192.0.2.1',
      toolName: 't',
      toolRule: undefined,
    };
    try {
      await redis.stop();
      const failed = await Promise.resolve(policy.check(call)).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(RpcError);
      expect(failed).toMatchObject({
        code: ErrorCode.InternalError,
        message: expect.stringMatching(/Rate limits could not be checked/),
      });
      expect((failed as RpcError).cause).toBeInstanceOf(Error);
      await redis.start();
      let allowed = false;
      for (let i = 0; i < 100 && !allowed; i++) {
        allowed = await Promise.resolve(policy.check(call)).then(
          (v) => v.allowed,
          () => false,
        );
        if (!allowed) await sleep(50);
      }
      expect(allowed).toBe(true);
    } finally {
      await store.close();
    }
  });
});

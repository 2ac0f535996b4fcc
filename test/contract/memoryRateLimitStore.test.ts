import { describe, expect, it } from 'vitest';
// Through the public entry: the memory store is what applications import from 'toolwire'.
import { MemoryRateLimitStore } from '../../src/index.js';
import { rateLimitStoreContract } from './rateLimitStoreContract.js';

rateLimitStoreContract('memory', async () => {
  const store = new MemoryRateLimitStore();
  return { a: store, b: store, close: async () => {} };
});

describe('MemoryRateLimitStore specifics', () => {
  const rule = { limit: 2, windowMs: 1000 };

  it('answers synchronously (no promise per call)', () => {
    const store = new MemoryRateLimitStore();
    expect(store.admit({ buckets: [{ key: 'k', rule }] })).toEqual({ allowed: true });
    const held = store.admit({
      buckets: [],
      slot: { key: 's', max: 1, leaseMs: 1000, retryAfterMs: 1 },
    });
    expect(held).not.toBeInstanceOf(Promise);
    expect(held.allowed).toBe(true);
  });

  it('stays bounded under a flood of callers: idle buckets go first, then the oldest', () => {
    let now = 0;
    const store = new MemoryRateLimitStore({ maxBuckets: 100, now: () => now });
    for (let i = 0; i < 10_000; i++) {
      store.admit({
        buckets: [
          { key: `caller${i}`, rule },
          { key: 'global', rule: { limit: 1e9, windowMs: 1000 } },
        ],
      });
      expect(store.size.buckets).toBeLessThanOrEqual(100);
      now += 1;
    }
    // A caller still busy is kept while idle ones make room: fill with busy callers, let them
    // refill, then a newcomer evicts the refilled ones, not the caller that keeps calling.
    const busy = new MemoryRateLimitStore({ maxBuckets: 10, now: () => now });
    for (let i = 0; i < 9; i++) busy.admit({ buckets: [{ key: `idle${i}`, rule }] });
    busy.admit({ buckets: [{ key: 'hot', rule }] });
    busy.admit({ buckets: [{ key: 'hot', rule }] }); // hot is empty now
    now += 600; // the idle ones (one token short) are full again; hot is still short
    busy.admit({ buckets: [{ key: 'newcomer', rule }] });
    expect(busy.size.buckets).toBe(2);
    expect(busy.admit({ buckets: [{ key: 'hot', rule }] }).allowed).toBe(true);
    expect(busy.admit({ buckets: [{ key: 'hot', rule }] }).allowed).toBe(false); // not reset
  });

  it('drops a set of slots once its last slot is released or expired', () => {
    let now = 0;
    const store = new MemoryRateLimitStore({ maxBuckets: 10, now: () => now });
    const slot = (key: string) => ({ key, max: 5, leaseMs: 100, retryAfterMs: 10 });
    const first = store.admit({ buckets: [], slot: slot('a') });
    const second = store.admit({ buckets: [], slot: slot('a') });
    expect(store.size.slots).toBe(1);
    if (first.allowed) first.release?.();
    if (second.allowed) second.release?.();
    expect(store.size.slots).toBe(0);
    // Never released: swept once the table of slot sets is full and the leases have ended.
    for (let i = 0; i < 10; i++) store.admit({ buckets: [], slot: slot(`leak${i}`) });
    expect(store.size.slots).toBe(10);
    now += 200;
    store.admit({ buckets: [], slot: slot('fresh') });
    expect(store.size.slots).toBe(1);
  });

  it('refuses a table size it cannot honour', () => {
    expect(() => new MemoryRateLimitStore({ maxBuckets: 0 })).toThrow(
      /maxBuckets must be a positive whole number/,
    );
  });
});

/**
 * @module The RateLimitStore contract: the memory and Redis stores run this same suite (STYLE.md
 * §2.9). Real time with short windows, waits bounded; no timing is asserted beyond what the
 * token bucket arithmetic guarantees.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/jsonrpc/errors.js';
import { RateLimitPolicy, rateLimitedError } from '../../src/server/policy/rateLimitPolicy.js';
import type {
  Admission,
  AdmitRequest,
  RateLimitRule,
  RateLimitStore,
  SlotTake,
} from '../../src/server/policy/rateLimitStore.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const HOUR = 3_600_000;

/** Two views of one set of counts: two instances on one Redis; the same store in memory. */
export interface SharedStores {
  readonly a: RateLimitStore;
  readonly b: RateLimitStore;
  close(): Promise<void>;
}

/** Registers the contract tests for stores made by `make` (fresh and empty for each test). */
export function rateLimitStoreContract(name: string, make: () => Promise<SharedStores>): void {
  describe(`RateLimitStore contract: ${name}`, () => {
    let stores: SharedStores;
    let store: RateLimitStore;
    beforeEach(async () => {
      stores = await make();
      store = stores.a;
    });
    afterEach(async () => {
      await stores.close();
    });

    const admit = (request: AdmitRequest, on = store): Promise<Admission> =>
      Promise.resolve(on.admit(request));
    const take = (key: string, rule: RateLimitRule, on = store) =>
      admit({ buckets: [{ key, rule }] }, on);
    const slot = (key: string, max: number, extra: Partial<SlotTake> = {}): SlotTake => ({
      key,
      max,
      leaseMs: 60_000,
      retryAfterMs: 500,
      ...extra,
    });

    it('allows the burst, then refuses with the wait for the next token', async () => {
      const rule = { limit: 3, windowMs: 60_000 }; // one token every 20 s
      for (let i = 0; i < 3; i++) expect(await take('k', rule)).toEqual({ allowed: true });
      const refused = await take('k', rule);
      expect(refused).toMatchObject({ allowed: false, refusedBy: 0 });
      if (refused.allowed) throw new Error('unreachable');
      expect(refused.retryAfterMs).toBeGreaterThan(15_000);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(20_000);
      expect(Number.isInteger(refused.retryAfterMs)).toBe(true);
    });

    it('refills continuously: after the wait it names, a call fits again', async () => {
      const rule = { limit: 2, windowMs: 200 }; // one token every 100 ms
      await take('k', rule);
      await take('k', rule);
      const refused = await take('k', rule);
      if (refused.allowed) throw new Error('expected a refusal');
      expect(refused.retryAfterMs).toBeLessThanOrEqual(100);
      await sleep(refused.retryAfterMs + 20);
      expect((await take('k', rule)).allowed).toBe(true);
      // A refill never exceeds the burst: after a long pause, still only `limit` calls at once.
      await sleep(450);
      const after = await Promise.all([take('k', rule), take('k', rule), take('k', rule)]);
      expect(after.map((a) => a.allowed)).toEqual([true, true, false]);
    });

    it('a fractional limit allows one call per windowMs / limit', async () => {
      const rule = { limit: 0.5, windowMs: 60_000 };
      expect((await take('k', rule)).allowed).toBe(true);
      const refused = await take('k', rule);
      if (refused.allowed) throw new Error('expected a refusal');
      expect(refused.retryAfterMs).toBeGreaterThan(110_000);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(120_000);
    });

    it('keeps keys apart', async () => {
      const rule = { limit: 1, windowMs: HOUR };
      expect((await take('alice', rule)).allowed).toBe(true);
      expect((await take('alice', rule)).allowed).toBe(false);
      expect((await take('bob', rule)).allowed).toBe(true);
      expect((await take('alice:x', rule)).allowed).toBe(true);
    });

    it('a bucket whose rule changes keeps its tokens, capped by the new burst', async () => {
      for (let i = 0; i < 2; i++) await take('k', { limit: 10, windowMs: HOUR });
      const smaller = { limit: 3, windowMs: HOUR };
      const outcomes = [];
      for (let i = 0; i < 4; i++) outcomes.push((await take('k', smaller)).allowed);
      expect(outcomes).toEqual([true, true, true, false]);
    });

    it('takes from every bucket or from none, and names the longest wait', async () => {
      const tight = { limit: 1, windowMs: HOUR };
      const loose = { limit: 5, windowMs: HOUR };
      const short = { limit: 1, windowMs: 10_000 };
      await take('tight', tight);
      await take('short', short);
      const refused = await admit({
        buckets: [
          { key: 'loose', rule: loose },
          { key: 'short', rule: short },
          { key: 'tight', rule: tight },
        ],
      });
      expect(refused).toMatchObject({ allowed: false, refusedBy: 2 });
      if (refused.allowed) throw new Error('unreachable');
      expect(refused.retryAfterMs).toBeGreaterThan(10_000); // the hour, not the 10 s
      // `loose` gave nothing to the refused admission: all five calls are still there.
      const outcomes = [];
      for (let i = 0; i < 6; i++) outcomes.push((await take('loose', loose)).allowed);
      expect(outcomes).toEqual([true, true, true, true, true, false]);
    });

    it('never admits more than the limit, whatever the number of instances taking at once', async () => {
      const rule = { limit: 10, windowMs: HOUR };
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, (_, i) => take('shared', rule, i % 2 ? stores.b : stores.a)),
      );
      expect(outcomes.filter((o) => o.allowed)).toHaveLength(10);
      // Several buckets at once: the global bucket is the one that runs out.
      const global = { key: 'global', rule: { limit: 7, windowMs: HOUR } };
      const mixed = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          admit(
            { buckets: [global, { key: `p${i % 3}`, rule: { limit: 5, windowMs: HOUR } }] },
            i % 2 ? stores.b : stores.a,
          ),
        ),
      );
      expect(mixed.filter((o) => o.allowed)).toHaveLength(7);
    });

    it('caps slots held at once; a released slot is free again, a release counts once', async () => {
      const held = [];
      for (let i = 0; i < 2; i++) {
        const a = await admit({ buckets: [], slot: slot('s', 2) });
        expect(a.allowed).toBe(true);
        if (a.allowed) held.push(a.release);
      }
      expect(held.every((r) => typeof r === 'function')).toBe(true);
      const refused = await admit({ buckets: [], slot: slot('s', 2) });
      expect(refused).toMatchObject({ allowed: false, refusedBy: 0 });
      if (refused.allowed) throw new Error('unreachable');
      expect(refused.retryAfterMs).toBeGreaterThanOrEqual(1);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(500);
      // Another key has its own slots.
      expect((await admit({ buckets: [], slot: slot('other', 2) })).allowed).toBe(true);
      held[0]!();
      held[0]!(); // twice: frees one slot only
      const again = [
        await admit({ buckets: [], slot: slot('s', 2) }),
        await admit({ buckets: [], slot: slot('s', 2) }),
      ];
      expect(again.map((a) => a.allowed)).toEqual([true, false]);
      // An admission without a slot has nothing to release.
      const plain = await take('k', { limit: 1, windowMs: HOUR });
      expect(plain.allowed && plain.release).toBeUndefined();
    });

    it('a full set of slots refuses even with a retry hint of 0 (and answers at least 1 ms)', async () => {
      const eager = slot('z', 1, { retryAfterMs: 0 });
      expect((await admit({ buckets: [], slot: eager })).allowed).toBe(true);
      expect(await admit({ buckets: [], slot: eager })).toEqual({
        allowed: false,
        retryAfterMs: 1,
        refusedBy: 0,
      });
    });

    it('holds the slot cap across instances taking at once', async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          admit({ buckets: [], slot: slot('s', 3) }, i % 2 ? stores.b : stores.a),
        ),
      );
      expect(outcomes.filter((o) => o.allowed)).toHaveLength(3);
    });

    it('a slot refused takes no token, and a bucket refused takes no slot', async () => {
      const rule = { limit: 1, windowMs: HOUR };
      await admit({ buckets: [], slot: slot('s', 1) });
      const bySlot = await admit({ buckets: [{ key: 'b', rule }], slot: slot('s', 1) });
      expect(bySlot).toMatchObject({ allowed: false, refusedBy: 1 });
      expect((await take('b', rule)).allowed).toBe(true); // its token was still there
      const byBucket = await admit({ buckets: [{ key: 'b', rule }], slot: slot('t', 1) });
      expect(byBucket).toMatchObject({ allowed: false, refusedBy: 0 });
      expect((await admit({ buckets: [], slot: slot('t', 1) })).allowed).toBe(true);
    });

    it('frees a slot whose lease ended without a release (a crashed holder)', async () => {
      const short = slot('s', 1, { leaseMs: 150, retryAfterMs: 5_000 });
      expect((await admit({ buckets: [], slot: short })).allowed).toBe(true);
      const refused = await admit({ buckets: [], slot: short });
      if (refused.allowed) throw new Error('expected a refusal');
      // The hint is when the lease ends, sooner than the configured 5 s.
      expect(refused.retryAfterMs).toBeLessThanOrEqual(150);
      await sleep(200);
      expect((await admit({ buckets: [], slot: short }, stores.b)).allowed).toBe(true);
    });

    describe('through the policy', () => {
      it('refuses with the limit that asks for the longest wait, and builds its error', async () => {
        const policy = new RateLimitPolicy({
          global: { limit: 100, windowMs: HOUR },
          perPrincipal: { limit: 2, windowMs: 1_000 },
          perTool: { limit: 2, windowMs: 60_000 },
          store,
        });
        const call = {
          identity: { id: 'alice' },
          clientAddress: undefined,
          toolName: 'search',
          toolRule: undefined,
        };
        expect((await policy.check(call)).allowed).toBe(true);
        expect((await policy.check(call)).allowed).toBe(true);
        const refused = await policy.check(call);
        // Both the principal (1 s) and the tool (60 s) refuse: the answer is the tool's wait.
        expect(refused).toMatchObject({ allowed: false, limit: 'tool' });
        if (refused.allowed) throw new Error('unreachable');
        expect(refused.retryAfterMs).toBeGreaterThan(20_000);
        const error = rateLimitedError(refused, 'search');
        expect(error.code).toBe(ErrorCode.RateLimited);
        expect(error.data).toEqual({ retryAfterMs: refused.retryAfterMs, limit: 'tool' });
        expect(error.message).toMatch(/^Rate limit exceeded for tool "search"; retry in \d+ s$/);
        // Another principal is counted apart; the global bucket still has room.
        expect((await policy.check({ ...call, identity: { id: 'bob' } })).allowed).toBe(true);
      });

      it('caps the calls a principal runs at once until they are released', async () => {
        const policy = new RateLimitPolicy({ concurrentPerPrincipal: 1, store });
        const call = {
          identity: undefined,
          clientAddress: '203.0.113.9',
          toolName: 'work',
          toolRule: undefined,
          leaseMs: 60_000,
        };
        const first = await policy.check(call);
        if (!first.allowed) throw new Error('expected an admission');
        expect(await policy.check(call)).toMatchObject({ allowed: false, limit: 'concurrency' });
        expect((await policy.check({ ...call, clientAddress: '198.51.100.1' })).allowed).toBe(true);
        first.release!();
        expect((await policy.check(call)).allowed).toBe(true);
      });
    });
  });
}

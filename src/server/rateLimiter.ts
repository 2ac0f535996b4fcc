/**
 * @module What the `tools/call` pipeline used before the rate limit policy (rateLimitPolicy.ts):
 * a single per-principal, per-tool bucket, now counted by the memory store. Kept, with the names
 * the pipeline imports, until the pipeline checks calls with {@link RateLimitPolicy}.
 */
import { MemoryRateLimitStore } from './memoryRateLimitStore.js';
import type { RateLimitRule } from './rateLimitStore.js';

export { rateLimitRuleProblem } from './rateLimitStore.js';
export type { RateLimitRule } from './rateLimitStore.js';
export { rateLimitSubject } from './rateLimitPolicy.js';

/** The outcome of one {@link RateLimiter.take}. */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

/** Checks one rate limit rule per call; one instance per server. */
export class RateLimiter {
  private readonly store: MemoryRateLimitStore;

  constructor(now: () => number = Date.now, maxBuckets = 10_000) {
    this.store = new MemoryRateLimitStore({ now, maxBuckets });
  }

  /** Takes one token from the bucket of `key`, creating it full under `rule`. */
  take(key: string, rule: RateLimitRule): RateDecision {
    return this.store.admit({ buckets: [{ key, rule }] });
  }
}

/**
 * @module Where rate limit counts live: the {@link RateLimitStore} interface (token buckets and a
 * concurrency cap with leases), implemented in memory (`MemoryRateLimitStore`) and in Redis
 * (`RedisRateLimitStore`, `toolwire/redis`) and held to one contract suite. Type-only apart from
 * the rule check, so the Redis store (L3) may import it.
 */

/**
 * A token bucket: `limit` calls per `windowMs`, refilled continuously (one call every
 * `windowMs / limit` ms); the burst is `limit` calls (at least one, so a fractional limit such as
 * 0.5 per second allows one call every two seconds).
 */
export interface RateLimitRule {
  /** Calls allowed per window (also the burst size). */
  limit: number;
  /** Window length in milliseconds. */
  windowMs: number;
}

/** One bucket an admission takes a token from. */
export interface BucketTake {
  /** Which bucket (the store adds its own prefix). */
  readonly key: string;
  /** Its rule; a bucket whose rule changed keeps its tokens, capped by the new burst. */
  readonly rule: RateLimitRule;
}

/** A concurrency slot an admission takes: one of at most `max` held at once under `key`. */
export interface SlotTake {
  /** Which set of slots (the store adds its own prefix). */
  readonly key: string;
  /** Slots that may be held at once. */
  readonly max: number;
  /**
   * How long the slot is held at most, in milliseconds: a slot never released (its process
   * crashed) is free again after this. Longer than the call's deadline.
   */
  readonly leaseMs: number;
  /** The retry hint of a refusal, when no held slot expires sooner. */
  readonly retryAfterMs: number;
}

/** What one admission asks for: a token from every bucket and, optionally, a slot. */
export interface AdmitRequest {
  readonly buckets: readonly BucketTake[];
  readonly slot?: SlotTake;
}

/** An admission granted. `release` is set when a slot was taken: call it once the call ends. */
export interface Admitted {
  readonly allowed: true;
  /** Frees the slot (idempotent; a failure to free it is left to the lease to expire). */
  readonly release?: () => void;
}

/** An admission refused: nothing was taken. */
export interface Refused {
  readonly allowed: false;
  /** The longest wait among the buckets and the slot that refused, in milliseconds (>= 1). */
  readonly retryAfterMs: number;
  /**
   * Which one asked for that wait: an index into `buckets`, or `buckets.length` for the slot.
   */
  readonly refusedBy: number;
}

/** The admission of a call that took no slot, shared: nothing to allocate per call. */
export const ADMITTED: Admitted = Object.freeze({ allowed: true });

/** The outcome of {@link RateLimitStore.admit}. */
export type Admission = Admitted | Refused;

/**
 * Counts calls against rate limits. `admit` is atomic: it checks every bucket and the slot, then
 * takes a token from each bucket and the slot only if all of them allow it, so a refusal costs
 * no bucket a token (also across processes sharing the store). A store may answer synchronously
 * (the memory store does, so a call path with no promise stays without one) or with a promise.
 */
export interface RateLimitStore {
  /** Admits one call, or refuses it saying how long to wait. */
  admit(request: AdmitRequest): Admission | Promise<Admission>;
}

/**
 * Why a rule cannot be used, or undefined. Checked when a server or tool is configured: a limit of
 * 0, a negative or non-finite value would block everything or nothing without saying so.
 */
export function rateLimitRuleProblem(rule: unknown): string | undefined {
  if (typeof rule !== 'object' || rule === null) return 'a rate limit must be { limit, windowMs }';
  const { limit, windowMs } = rule as Partial<RateLimitRule>;
  if (typeof limit !== 'number' || !Number.isFinite(limit) || limit <= 0)
    return `rate limit "limit" must be a positive finite number (got ${String(limit)})`;
  if (typeof windowMs !== 'number' || !Number.isFinite(windowMs) || windowMs <= 0)
    return `rate limit "windowMs" must be a positive finite number (got ${String(windowMs)})`;
  return undefined;
}

/** The burst of a rule: `limit`, but at least one call (else no call would ever fit). */
export function burstOf(rule: RateLimitRule): number {
  return rule.limit >= 1 ? rule.limit : 1;
}

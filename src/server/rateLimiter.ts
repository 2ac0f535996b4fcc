/**
 * @module Token-bucket rate limiting per principal and tool (the spec's "rate limit tool
 * invocations" MUST). Memory stays bounded: idle buckets are dropped once they would be full.
 */

/** A limit of `limit` calls per `windowMs`, refilled continuously. */
export interface RateLimitRule {
  /** Calls allowed per window (also the burst size). */
  limit: number;
  /** Window length in milliseconds. */
  windowMs: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
  readonly rule: RateLimitRule;
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

/**
 * Whom a call is counted against: the authenticated principal; else the client's network address
 * (HTTP), so that opening a new session resets nothing; else the process (stdio has one client).
 */
export function rateLimitSubject(
  identity: { readonly id: string } | undefined,
  clientAddress: string | undefined,
): string {
  if (identity) return `principal:${identity.id}`;
  return clientAddress === undefined ? 'local' : `address:${clientAddress}`;
}

/** The outcome of one {@link RateLimiter.take}. */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

/** Checks rate limit rules; one instance per server. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxBuckets = 10_000,
  ) {}

  /** Takes one token from the bucket of `key`, creating it full under `rule`. */
  take(key: string, rule: RateLimitRule): RateDecision {
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (!bucket || bucket.rule !== rule) {
      if (this.buckets.size >= this.maxBuckets) this.sweep(now);
      bucket = { tokens: rule.limit, updatedAt: now, rule };
      this.buckets.set(key, bucket);
    }
    const rate = rule.limit / rule.windowMs;
    bucket.tokens = Math.min(rule.limit, bucket.tokens + (now - bucket.updatedAt) * rate);
    bucket.updatedAt = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    return { allowed: false, retryAfterMs: Math.ceil((1 - bucket.tokens) / rate) };
  }

  private sweep(now: number): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + (now - b.updatedAt) * (b.rule.limit / b.rule.windowMs) >= b.rule.limit) {
        this.buckets.delete(key);
      }
    }
    // Still full of busy buckets: drop the oldest rather than grow without bound.
    for (const key of this.buckets.keys()) {
      if (this.buckets.size < this.maxBuckets) break;
      this.buckets.delete(key);
    }
  }
}

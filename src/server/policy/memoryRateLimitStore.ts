/**
 * @module The in-memory {@link RateLimitStore}: token buckets and concurrency slots of one
 * process, answered synchronously (no promise per call). Memory stays bounded: a bucket that
 * would be full again is the same as no bucket, so such buckets are dropped when the table is
 * full, and if the table is still full the oldest go (their callers start again from a full
 * bucket); a set of slots goes as soon as its last slot is freed or expires.
 */
import {
  ADMITTED,
  burstOf,
  type Admission,
  type AdmitRequest,
  type Admitted,
  type BucketTake,
  type RateLimitRule,
  type RateLimitStore,
  type SlotTake,
} from './rateLimitStore.js';

/** Options of {@link MemoryRateLimitStore}. */
export interface MemoryRateLimitStoreOptions {
  /** Buckets kept at most (one per principal, per principal and tool, and the global one). Default 10 000. */
  maxBuckets?: number;
  /** The clock, in milliseconds (tests). Default `Date.now`. */
  now?: () => number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
  /** The rule last applied: tells the sweep when the bucket would be full again. */
  rule: RateLimitRule;
}

/** One held slot: freed by its release, or by time once `expiresAt` passes. */
interface Lease {
  readonly expiresAt: number;
}

/** Tokens of `bucket` at `now` under `rule`, refilled since its last update. */
function refilled(bucket: Bucket, rule: RateLimitRule, now: number): number {
  const elapsed = now > bucket.updatedAt ? now - bucket.updatedAt : 0;
  const tokens = bucket.tokens + (elapsed * rule.limit) / rule.windowMs;
  const burst = burstOf(rule);
  return tokens < burst ? tokens : burst;
}

/** Rate limit counts of this process. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly buckets = new Map<string, Bucket>();
  private readonly slots = new Map<string, Set<Lease>>();
  private readonly maxBuckets: number;
  private readonly now: () => number;

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    this.maxBuckets = options.maxBuckets ?? 10_000;
    if (!Number.isInteger(this.maxBuckets) || this.maxBuckets < 1)
      throw new RangeError('maxBuckets must be a positive whole number');
    this.now = options.now ?? Date.now;
  }

  /** Buckets and sets of slots held now (memory use; tests). */
  get size(): { buckets: number; slots: number } {
    return { buckets: this.buckets.size, slots: this.slots.size };
  }

  /** See {@link RateLimitStore.admit}; always synchronous here. */
  admit(request: AdmitRequest): Admission {
    const now = this.now();
    const { buckets, slot } = request;
    if (this.buckets.size + buckets.length > this.maxBuckets) this.makeRoom(buckets, now);
    // Takes a token from each bucket while checking them, and gives them back if any refuses:
    // one lookup per bucket on the common path, and the same all-or-nothing outcome (nothing
    // else runs in between).
    let wait = 0;
    let refusedBy = -1;
    for (let i = 0; i < buckets.length; i++) {
      const { key, rule } = buckets[i]!;
      let bucket = this.buckets.get(key);
      if (bucket) {
        bucket.tokens = refilled(bucket, rule, now) - 1;
        bucket.updatedAt = now;
        bucket.rule = rule;
      } else {
        bucket = { tokens: burstOf(rule) - 1, updatedAt: now, rule };
        this.buckets.set(key, bucket);
      }
      if (bucket.tokens < 0) {
        const ms = Math.ceil((-bucket.tokens * rule.windowMs) / rule.limit);
        if (ms > wait) {
          wait = ms;
          refusedBy = i;
        }
      }
    }
    let leases: Set<Lease> | undefined;
    if (slot) {
      leases = this.liveLeases(slot.key, now);
      if (leases !== undefined && leases.size >= slot.max) {
        const ms = this.slotWait(leases, slot, now);
        if (refusedBy < 0 || ms > wait) {
          wait = ms;
          refusedBy = buckets.length;
        }
      }
    }
    if (refusedBy < 0) return slot ? this.hold(slot, leases, now) : ADMITTED;
    for (let i = 0; i < buckets.length; i++) this.buckets.get(buckets[i]!.key)!.tokens += 1;
    return { allowed: false, retryAfterMs: Math.max(1, wait), refusedBy };
  }

  /** The unexpired leases of `key` (dropping expired ones), or undefined when there are none. */
  private liveLeases(key: string, now: number): Set<Lease> | undefined {
    const leases = this.slots.get(key);
    if (!leases) return undefined;
    for (const lease of leases) if (lease.expiresAt <= now) leases.delete(lease);
    if (leases.size > 0) return leases;
    this.slots.delete(key);
    return undefined;
  }

  /** The retry hint of a full set of slots: the hint, or sooner if a lease expires sooner. */
  private slotWait(leases: Set<Lease>, slot: SlotTake, now: number): number {
    let ms = slot.retryAfterMs;
    for (const lease of leases) if (lease.expiresAt - now < ms) ms = lease.expiresAt - now;
    return Math.ceil(ms);
  }

  private hold(slot: SlotTake, existing: Set<Lease> | undefined, now: number): Admitted {
    let leases = existing;
    if (!leases) {
      if (this.slots.size >= this.maxBuckets) this.sweepSlots(now);
      leases = new Set<Lease>();
      this.slots.set(slot.key, leases);
    }
    const held = leases;
    const lease: Lease = { expiresAt: now + slot.leaseMs };
    leases.add(lease);
    const release = (): void => {
      // Idempotent, and harmless after the lease expired or the set was dropped and remade.
      if (!held.delete(lease)) return;
      if (held.size === 0 && this.slots.get(slot.key) === held) this.slots.delete(slot.key);
    };
    return { allowed: true, release };
  }

  /** Drops expired leases everywhere (leases never released of callers not seen again). */
  private sweepSlots(now: number): void {
    for (const key of this.slots.keys()) this.liveLeases(key, now);
  }

  /** Sweeps when the buckets of `takes` that do not exist yet would not fit. */
  private makeRoom(takes: readonly BucketTake[], now: number): void {
    let missing = 0;
    for (const take of takes) if (!this.buckets.has(take.key)) missing++;
    if (this.buckets.size + missing > this.maxBuckets) this.sweep(now, missing);
  }

  /**
   * Makes room for `needed` new buckets: drops the buckets that would be full by now, then, if
   * the table is still over 90 % full, the oldest ones down to that, so a flood of new callers
   * pays for a scan once per tenth of the table, not on every call.
   */
  private sweep(now: number, needed: number): void {
    for (const [key, bucket] of this.buckets)
      if (refilled(bucket, bucket.rule, now) >= burstOf(bucket.rule)) this.buckets.delete(key);
    const target = Math.min(Math.floor(this.maxBuckets * 0.9), this.maxBuckets - needed);
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= target) break;
      this.buckets.delete(key);
    }
  }
}

/**
 * @module Verdicts on access tokens kept for a short while, so a client sending the same token
 * on every request costs one signature check or introspection call per token, not per request.
 * Bounded in entries (the oldest go first) and in time: an entry never outlives its `until`,
 * which the verifiers set no later than the token's own expiry.
 */

/** A bounded cache of values by token with an expiry per entry. */
export class TokenCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(
    /** Most entries kept; 0 keeps none. */
    private readonly maxEntries: number,
  ) {}

  /** The value cached for `token`, unless it expired (at `now`, ms since the epoch). */
  get(token: string, now: number): V | undefined {
    const entry = this.entries.get(token);
    if (entry === undefined) return undefined;
    if (entry.until > now) return entry.value;
    this.entries.delete(token);
    return undefined;
  }

  /** Keeps `value` for `token` until `until` (ms since the epoch); ignored when already past. */
  set(token: string, value: V, time: { until: number; now: number }): void {
    const { until, now } = time;
    if (this.maxEntries <= 0 || until <= now) return;
    this.entries.delete(token);
    if (this.entries.size >= this.maxEntries) {
      // The oldest goes (a Map keeps insertion order): O(1), whatever a flood of tokens does.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(token, { value, until });
  }

  /** Number of entries held (some may have expired). */
  get size(): number {
    return this.entries.size;
  }
}

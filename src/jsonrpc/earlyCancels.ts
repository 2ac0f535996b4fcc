/**
 * @module Cancellations that arrive before their request. Over transports that do not keep order
 * (Streamable HTTP: each message is its own POST, possibly on another connection or instance)
 * a client's `notifications/cancelled` can overtake the request it cancels. Such a cancellation
 * is remembered for a short while, and the request, if it then arrives, never runs. Bounded in
 * count and time, so a peer cancelling ids it never sends costs nothing lasting. Request ids are
 * never reused within a session (MCP lifecycle), so a remembered id cannot catch a later request.
 */
import type { RequestId } from './types.js';

/** Options of {@link EarlyCancels}. */
export interface EarlyCancelLimits {
  /** How long a cancellation waits for its request. Default 10 000 ms. */
  readonly keepMs: number;
  /** Most cancellations remembered; the oldest are forgotten first. Default 256. */
  readonly max: number;
}

/** Remembered cancellations of requests not seen yet. */
export class EarlyCancels {
  /** Insertion order is expiry order: every entry keeps for the same time. */
  private readonly pending = new Map<RequestId, number>();

  constructor(
    private readonly limits: EarlyCancelLimits = { keepMs: 10_000, max: 256 },
    private readonly now: () => number = Date.now,
  ) {}

  /** Number of cancellations remembered. */
  get size(): number {
    return this.pending.size;
  }

  /** Remembers that `id` was cancelled before it arrived. */
  remember(id: RequestId): void {
    const now = this.now();
    this.expire(now);
    this.pending.delete(id);
    this.pending.set(id, now + this.limits.keepMs);
    if (this.pending.size > this.limits.max) {
      const oldest = this.pending.keys().next().value as RequestId;
      this.pending.delete(oldest);
    }
  }

  /** True (once) when `id` was cancelled before it arrived, and not too long ago. */
  take(id: RequestId): boolean {
    if (this.pending.size === 0) return false; // the common case costs one comparison
    const expiresAt = this.pending.get(id);
    if (expiresAt === undefined) return false;
    this.pending.delete(id);
    return expiresAt >= this.now();
  }

  private expire(now: number): void {
    for (const [id, expiresAt] of this.pending) {
      if (expiresAt >= now) return;
      this.pending.delete(id);
    }
  }
}

/**
 * @module Request states that may be used once: a 2026 round trip whose state carries an approval
 * (`ctx.confirm`) is spent by the run the approval lets through, so the same retry sent again
 * (a replay, or a client retrying after a lost answer) cannot run the approved work a second
 * time. A state is remembered until it expires, after which its signature refuses it anyway.
 */

/** Where spent states are remembered (shared by every instance that serves the same clients). */
export interface SpentStateStore {
  /**
   * Marks the state `id` spent until `expiresAt` (ms since the epoch); true the first time, false
   * when it was spent before (or cannot be recorded: the approval is then refused, not granted).
   */
  spend(id: string, expiresAt: number): boolean | Promise<boolean>;
}

/** The spent states of one process (`serve --redis` shares them in Redis instead). */
export class MemorySpentStates implements SpentStateStore {
  private readonly spent = new Map<string, number>();

  constructor(
    /** Most states remembered at once; past it, new approvals are refused until some expire. */
    private readonly maxEntries = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  spend(id: string, expiresAt: number): boolean {
    const now = this.now();
    if (this.spent.size >= this.maxEntries) this.sweep(now);
    const until = this.spent.get(id);
    if (until !== undefined && until > now) return false;
    if (this.spent.size >= this.maxEntries) return false;
    this.spent.set(id, expiresAt);
    return true;
  }

  /** Forgets the states that have expired (a state is kept in insertion order, not expiry). */
  private sweep(now: number): void {
    for (const [id, until] of this.spent) if (until <= now) this.spent.delete(id);
  }
}

/**
 * @module How many sessions each principal holds on this instance, under a cap: an authenticated
 * caller is counted by its identity, an anonymous one by its client address (the same key as its
 * rate limits, see clientAddress.ts), so one caller cannot take every session of the server. A
 * caller whose address the runtime does not report is held by the server-wide cap only.
 */

/** The principal a session is counted against, or undefined when nothing names the caller. */
export function principalKey(
  identity: { readonly id: string } | undefined,
  clientAddress: string | undefined,
): string | undefined {
  if (identity) return `identity:${identity.id}`;
  return clientAddress === undefined ? undefined : `address:${clientAddress}`;
}

/** Sessions per principal, counted on this instance. */
export class SessionQuota {
  private readonly counts = new Map<string, number>();

  constructor(
    /** Most sessions one principal may hold. */
    readonly perPrincipal: number,
  ) {}

  /**
   * Takes a place for a new session of `principal`: returns the function that gives it back
   * (once, however often it is called), or undefined when the principal holds the most it may.
   */
  take(principal: string | undefined): (() => void) | undefined {
    if (principal === undefined) return () => {};
    const held = this.counts.get(principal) ?? 0;
    if (held >= this.perPrincipal) return undefined;
    this.counts.set(principal, held + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const now = (this.counts.get(principal) ?? 1) - 1;
      if (now <= 0) this.counts.delete(principal);
      else this.counts.set(principal, now);
    };
  }

  /** Sessions `principal` holds (for tests and metrics). */
  held(principal: string): number {
    return this.counts.get(principal) ?? 0;
  }
}

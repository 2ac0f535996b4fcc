/**
 * @module A cheap cancellation token. Node's AbortController is an EventTarget and costs several
 * microseconds to create and combine (AbortSignal.any); profiling showed it as the largest cost of
 * a tool call. A Cancellation is a plain object with callbacks; its AbortSignal is created only
 * when someone reads `signal`.
 */

/** A one-shot cancellation with an optional parent whose cancellation it follows. */
export class Cancellation {
  private done = false;
  private why: unknown;
  /** The first listener, kept without an array: most tokens get one at most. */
  private first: ((reason: unknown) => void) | undefined;
  private listeners: Array<(reason: unknown) => void> | undefined;
  private controller: AbortController | undefined;

  constructor(parent?: Cancellation) {
    if (!parent) return;
    if (parent.done) this.cancel(parent.why);
    else parent.onCancel((reason) => this.cancel(reason));
  }

  /** True once cancelled. */
  get isCancelled(): boolean {
    return this.done;
  }

  /** Why it was cancelled (undefined before). */
  get reason(): unknown {
    return this.why;
  }

  /** An AbortSignal that follows this cancellation (created on first use). */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.done) this.controller.abort(this.why);
    }
    return this.controller.signal;
  }

  /** Cancels (once); listeners run synchronously, in order. */
  cancel(reason: unknown): void {
    if (this.done) return;
    this.done = true;
    this.why = reason;
    this.controller?.abort(reason);
    const first = this.first;
    const listeners = this.listeners;
    this.first = undefined;
    this.listeners = undefined;
    first?.(reason);
    if (listeners) for (const listener of listeners) listener(reason);
  }

  /** Forgets a listener (its owner finished), so the token no longer keeps it reachable. */
  offCancel(listener: (reason: unknown) => void): void {
    if (this.first === listener) this.first = undefined;
    else if (this.listeners) {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    }
  }

  /** Runs `listener` on cancellation (at once if already cancelled). */
  onCancel(listener: (reason: unknown) => void): void {
    if (this.done) listener(this.why);
    else if (this.first === undefined) this.first = listener;
    else (this.listeners ??= []).push(listener);
  }
}

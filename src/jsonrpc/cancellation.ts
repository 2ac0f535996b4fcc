/**
 * @module A cheap cancellation token. Node's AbortController is an EventTarget and costs several
 * microseconds to create and combine (AbortSignal.any); profiling showed it as the largest cost of
 * a tool call. A Cancellation is a plain object with callbacks; its AbortSignal is created only
 * when someone reads `signal`.
 */

/** Told once when a request is cancelled: an object, so watching allocates nothing. */
export interface CancelWatcher {
  cancelled(reason: unknown): void;
}

/**
 * Where a call's cancellation comes from (a request the connection tracks, or a task's token):
 * one watcher, told synchronously, and the token itself, created only when someone needs its
 * AbortSignal.
 */
export interface CancelSource {
  readonly cancellation: Cancellation;
  /** Cancels (once). */
  cancel(reason: unknown): void;
  /** Tells `watcher` on cancellation (at once if already cancelled). One watcher at a time. */
  watch(watcher: CancelWatcher): void;
  /** Forgets the watcher (its call ended), so nothing it holds stays reachable from here. */
  unwatch(): void;
}

/** A one-shot cancellation with an optional parent whose cancellation it follows. */
export class Cancellation implements CancelSource {
  private done = false;
  private why: unknown;
  /** The first listener, kept without an array: most tokens get one at most. */
  private first: ((reason: unknown) => void) | undefined;
  private listeners: Array<(reason: unknown) => void> | undefined;
  private watcher: CancelWatcher | undefined;
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
    const watcher = this.watcher;
    this.first = undefined;
    this.listeners = undefined;
    this.watcher = undefined;
    first?.(reason);
    if (listeners) for (const listener of listeners) listener(reason);
    watcher?.cancelled(reason);
  }

  /** The token itself (a Cancellation is its own source). */
  get cancellation(): Cancellation {
    return this;
  }

  watch(watcher: CancelWatcher): void {
    if (this.done) watcher.cancelled(this.why);
    else this.watcher = watcher;
  }

  unwatch(): void {
    this.watcher = undefined;
  }

  /** Runs `listener` on cancellation (at once if already cancelled). */
  onCancel(listener: (reason: unknown) => void): void {
    if (this.done) listener(this.why);
    else if (this.first === undefined) this.first = listener;
    else (this.listeners ??= []).push(listener);
  }
}

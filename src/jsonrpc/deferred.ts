/**
 * @module A result that comes later, without a Promise. A request handler may return one instead
 * of a Promise: the connection registers its two callbacks and the handler's code settles it
 * directly. Each Promise in a chain costs an allocation and a microtask hop; on the path of an
 * async tool handler (the handler's own promise, then the pipeline's steps, then the
 * connection's) they added up to a measurable share of a call's CPU time.
 */

/** A value settled once, later, by the code that created it. */
export class Deferred<T> {
  private state: 'pending' | 'resolved' | 'rejected' = 'pending';
  private value: T | undefined;
  private error: unknown;
  private onResolved: ((value: T) => void) | undefined;
  private onRejected: ((error: unknown) => void) | undefined;

  /** True until resolved or rejected. */
  get pending(): boolean {
    return this.state === 'pending';
  }

  /** Settles with a value (the first settlement wins). */
  resolve(value: T): void {
    if (this.state !== 'pending') return;
    this.state = 'resolved';
    this.value = value;
    const callback = this.onResolved;
    this.release();
    callback?.(value);
  }

  /** Settles with an error (the first settlement wins). */
  reject(error: unknown): void {
    if (this.state !== 'pending') return;
    this.state = 'rejected';
    this.error = error;
    const callback = this.onRejected;
    this.release();
    callback?.(error);
  }

  /** Runs one of the callbacks when settled (at once if it already is). Called once. */
  settleTo(onResolved: (value: T) => void, onRejected: (error: unknown) => void): void {
    if (this.state === 'resolved') onResolved(this.value as T);
    else if (this.state === 'rejected') onRejected(this.error);
    else {
      this.onResolved = onResolved;
      this.onRejected = onRejected;
    }
  }

  /** The same outcome as a Promise, for callers that need one (tests, task runs). */
  toPromise(): Promise<T> {
    return new Promise<T>((resolve, reject) => this.settleTo(resolve, reject));
  }

  private release(): void {
    this.onResolved = undefined;
    this.onRejected = undefined;
  }
}

/**
 * @module Where the messages of each request in flight on a session go, by request id. Most
 * sessions have one request in flight at a time, and a `Map` that keeps going from one entry to
 * none reallocates its table on each emptying (about 100 ns and 300 bytes of garbage per call,
 * measured): the first entry is kept in two fields, the others in a `Map` that rarely empties.
 */
import type { RequestId } from '../../../../jsonrpc/types.js';

/** Request id to a destination; an id is in the fields or in the Map, never both. */
export class RequestRoutes<T> {
  private firstId: RequestId | undefined;
  private first: T | undefined;
  private readonly rest = new Map<RequestId, T>();

  /** Number of requests routed. */
  get size(): number {
    return (this.first === undefined ? 0 : 1) + this.rest.size;
  }

  get(id: RequestId): T | undefined {
    return this.first !== undefined && id === this.firstId ? this.first : this.rest.get(id);
  }

  has(id: RequestId): boolean {
    return this.get(id) !== undefined;
  }

  set(id: RequestId, to: T): void {
    if (this.first !== undefined && id === this.firstId) this.first = to;
    else if (this.first === undefined && !this.rest.has(id)) {
      this.firstId = id;
      this.first = to;
    } else this.rest.set(id, to);
  }

  /** Removes the route of `id` if it still leads to `to` (a later request may reuse the id). */
  release(id: RequestId, to: T): void {
    if (this.first !== undefined && id === this.firstId) {
      if (this.first !== to) return;
      this.first = undefined;
      this.firstId = undefined;
    } else if (this.rest.get(id) === to) this.rest.delete(id);
  }

  /** Every destination (one per request: a destination serving several appears several times). */
  *values(): IterableIterator<T> {
    if (this.first !== undefined) yield this.first;
    yield* this.rest.values();
  }

  clear(): void {
    this.first = undefined;
    this.firstId = undefined;
    this.rest.clear();
  }
}

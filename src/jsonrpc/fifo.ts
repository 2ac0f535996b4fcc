/**
 * @module A first-in first-out queue with O(1) push and shift (an array's `shift()` moves every
 * element: with a thousand requests waiting, draining them would be quadratic).
 */

/** A FIFO queue. */
export class Fifo<T> {
  private items: Array<T | undefined> = [];
  private head = 0;

  /** Number of queued items. */
  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** The oldest item, removed; undefined when empty. */
  shift(): T | undefined {
    if (this.head === this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    // Compact once the consumed prefix dominates, so memory follows what is queued.
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Removes everything. */
  clear(): void {
    this.items = [];
    this.head = 0;
  }
}

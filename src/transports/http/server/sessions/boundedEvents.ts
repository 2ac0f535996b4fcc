/**
 * @module The events of one SSE stream waiting for a client, bounded: what the event store keeps
 * for a resumption (and what a congested connection catches up from), and what waits on a
 * congested HTTP+SSE connection. Responses and requests are always kept (dropping one would leave
 * a call or a server request without an answer; there are as many as there are requests). A
 * progress notification replaces the one waiting for the same token (the latest value wins: a
 * client only needs the newest progress). Notifications are kept up to a count and a size;
 * beyond them the oldest are dropped, progress last (one per token, it is what a client most
 * needs to see).
 */
import { PROGRESS as PROGRESS_METHOD } from '../../../../jsonrpc/methods.js';
import type { JsonRpcMessage } from '../../../../jsonrpc/types.js';

/** Bounds on the notifications one stream keeps. */
export interface EventBounds {
  /** Most notifications kept. */
  readonly maxNotifications: number;
  /** Most bytes of notifications kept (their JSON text). */
  readonly maxNotificationBytes: number;
}

/** The default bounds: 1000 notifications, 1 MiB. */
export const DEFAULT_EVENT_BOUNDS: EventBounds = {
  maxNotifications: 1000,
  maxNotificationBytes: 1024 * 1024,
};

/** One event as kept. */
export interface BoundedEvent {
  readonly id: string;
  readonly seq: number;
  readonly message: JsonRpcMessage;
}

/**
 * What may be dropped for the bounds, and in which order: responses and requests never, other
 * notifications first, progress (one per token) once no other notification is left.
 */
const KEEP = 0;
const PROGRESS = 1;
const OTHER = 2;
type Tier = typeof KEEP | typeof PROGRESS | typeof OTHER;

interface Entry extends BoundedEvent {
  readonly size: number;
  readonly tier: Tier;
  removed: boolean;
}

/** The progress token of a progress notification, else undefined. */
function progressToken(message: JsonRpcMessage): string | number | undefined {
  if (!('method' in message) || message.method !== PROGRESS_METHOD) return undefined;
  const token = (message.params as { progressToken?: unknown } | undefined)?.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

/** The events of one stream, in order, under {@link EventBounds}. */
export class BoundedEvents {
  private entries: Entry[] = [];
  private removedCount = 0;
  /** Per tier, where the search for its oldest entry starts (entries before it are not). */
  private readonly cursors = [0, 0, 0];
  private notifications = 0;
  private notificationBytes = 0;
  private readonly progress = new Map<string | number, Entry>();
  /** Notifications dropped for the bounds so far (coalesced progress is not counted). */
  dropped = 0;

  constructor(private readonly bounds: EventBounds = DEFAULT_EVENT_BOUNDS) {}

  /** Number of events kept. */
  get size(): number {
    return this.entries.length - this.removedCount;
  }

  /**
   * Adds an event (its `seq` above every other); `size` is the length of its JSON text when the
   * caller has it. Returns how many notifications were dropped for it.
   */
  push(event: BoundedEvent, size?: number): number {
    const message = event.message;
    const notification = 'method' in message && !('id' in message);
    const token = notification ? progressToken(message) : undefined;
    const entry: Entry = {
      id: event.id,
      seq: event.seq,
      message,
      size: size ?? JSON.stringify(message).length,
      tier: !notification ? KEEP : token === undefined ? OTHER : PROGRESS,
      removed: false,
    };
    if (token !== undefined) {
      const previous = this.progress.get(token);
      if (previous) this.remove(previous);
      this.progress.set(token, entry);
    }
    this.entries.push(entry);
    if (entry.tier !== KEEP) {
      this.notifications++;
      this.notificationBytes += entry.size;
    }
    let dropped = 0;
    while (
      this.notifications > this.bounds.maxNotifications ||
      this.notificationBytes > this.bounds.maxNotificationBytes
    ) {
      const oldest = this.oldest(OTHER) ?? this.oldest(PROGRESS);
      if (!oldest) break;
      this.remove(oldest);
      dropped++;
    }
    this.dropped += dropped;
    this.compact();
    return dropped;
  }

  /** The events after `seq`, in order. */
  after(seq: number): BoundedEvent[] {
    const out: BoundedEvent[] = [];
    for (const e of this.entries) if (!e.removed && e.seq > seq) out.push(e);
    return out;
  }

  /** Takes every event out, in order. */
  takeAll(): BoundedEvent[] {
    const out = this.after(-1);
    this.entries = [];
    this.removedCount = 0;
    this.cursors.fill(0);
    this.notifications = 0;
    this.notificationBytes = 0;
    this.progress.clear();
    return out;
  }

  private oldest(tier: Tier): Entry | undefined {
    let i = this.cursors[tier] as number;
    for (; i < this.entries.length; i++) {
      const e = this.entries[i] as Entry;
      if (!e.removed && e.tier === tier) break;
    }
    this.cursors[tier] = i;
    return this.entries[i];
  }

  private remove(entry: Entry): void {
    entry.removed = true;
    this.removedCount++;
    if (entry.tier !== KEEP) {
      this.notifications--;
      this.notificationBytes -= entry.size;
    }
    if (entry.tier === PROGRESS) {
      const token = progressToken(entry.message);
      if (token !== undefined && this.progress.get(token) === entry) this.progress.delete(token);
    }
  }

  /** Drops removed entries once they are as many as the kept ones (amortised O(1) per event). */
  private compact(): void {
    if (this.removedCount < 64 || this.removedCount < this.entries.length / 2) return;
    this.entries = this.entries.filter((e) => !e.removed);
    this.removedCount = 0;
    this.cursors.fill(0);
  }
}

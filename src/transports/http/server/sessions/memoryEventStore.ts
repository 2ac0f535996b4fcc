/**
 * @module The default event store (eventStore.ts says what one is): in memory, bounded per stream
 * and by age. Apart from the interfaces because it also implements the cluster's shared store
 * (cluster/cluster.ts), which itself builds on those interfaces.
 */
import type { JsonRpcMessage } from '../../../../jsonrpc/types.js';
import { BoundedEvents, DEFAULT_EVENT_BOUNDS } from './boundedEvents.js';
import type { SharedEventStore } from './cluster/cluster.js';
import { parseEventId, type Replay, type StoredEvent } from './eventStore.js';

/** Options of {@link MemoryEventStore}. */
export interface MemoryEventStoreOptions {
  /**
   * Most notifications kept per stream; older ones are dropped (a very late resume misses them).
   * Responses and requests are always kept, and a progress notification replaces the one kept
   * for the same token. Default 1000.
   */
  maxEventsPerStream?: number;
  /** Most bytes (JSON text) of notifications kept per stream, the same way. Default 1 MiB. */
  maxBytesPerStream?: number;
  /** A stream not written to for this long is forgotten. Default 10 minutes. */
  streamTtlMs?: number;
  /**
   * Told once per stream when its bounds first drop a notification (the client is not reading,
   * or not resuming): the handler reports it through its `onerror`.
   */
  ondrop?: (stream: { streamId: string; sessionId: string }) => void;
}

interface StreamRecord {
  sessionId: string;
  events: BoundedEvents;
  touchedAt: number;
  ended: boolean;
  followers: Set<Follower>;
}

interface Follower {
  onEvent: (event: StoredEvent) => void;
  onEnd: () => void;
}

/**
 * The default event store: in memory, bounded per stream and by age. It is also a shared store
 * ({@link SharedEventStore}) for several handlers in one process (tests of multi-instance setups).
 */
export class MemoryEventStore implements SharedEventStore {
  private readonly streams = new Map<string, StreamRecord>();
  private readonly bounds: { maxNotifications: number; maxNotificationBytes: number };
  private readonly ttlMs: number;
  private readonly ondrop: MemoryEventStoreOptions['ondrop'];
  private lastSweep = Date.now();

  constructor(options: MemoryEventStoreOptions = {}) {
    this.bounds = {
      maxNotifications: options.maxEventsPerStream ?? DEFAULT_EVENT_BOUNDS.maxNotifications,
      maxNotificationBytes: options.maxBytesPerStream ?? DEFAULT_EVENT_BOUNDS.maxNotificationBytes,
    };
    this.ttlMs = options.streamTtlMs ?? 10 * 60_000;
    this.ondrop = options.ondrop;
  }

  async append(event: {
    streamId: string;
    sessionId: string;
    eventId: string;
    message: JsonRpcMessage;
    data?: string;
  }): Promise<void> {
    const now = Date.now();
    this.sweep(now);
    const seq = parseEventId(event.eventId)?.seq;
    if (seq === undefined) throw new RangeError(`Malformed event id ${event.eventId}`);
    let record = this.streams.get(event.streamId);
    if (!record) {
      record = this.newRecord(event.sessionId, now);
      this.streams.set(event.streamId, record);
    }
    const droppedBefore = record.events.dropped;
    record.events.push({ id: event.eventId, message: event.message, seq }, event.data?.length);
    if (droppedBefore === 0 && record.events.dropped > 0)
      this.ondrop?.({ streamId: event.streamId, sessionId: record.sessionId });
    record.touchedAt = now;
    for (const follower of [...record.followers])
      follower.onEvent({ id: event.eventId, message: event.message });
  }

  async openStream(stream: { streamId: string; sessionId: string }): Promise<void> {
    const now = Date.now();
    this.sweep(now);
    if (!this.streams.has(stream.streamId))
      this.streams.set(stream.streamId, this.newRecord(stream.sessionId, now));
  }

  async endStream(streamId: string): Promise<void> {
    const record = this.streams.get(streamId);
    if (!record || record.ended) return;
    record.ended = true;
    for (const follower of [...record.followers]) follower.onEnd();
    record.followers.clear();
  }

  async follow(options: {
    lastEventId: string;
    onEvent: (event: StoredEvent) => void;
    onEnd: () => void;
  }): Promise<{ sessionId: string; stop: () => void } | undefined> {
    const parsed = parseEventId(options.lastEventId);
    const record = parsed && this.streams.get(parsed.streamId);
    if (!parsed || !record) return undefined;
    record.touchedAt = Date.now();
    for (const e of record.events.after(parsed.seq))
      options.onEvent({ id: e.id, message: e.message });
    if (record.ended) {
      options.onEnd();
      return { sessionId: record.sessionId, stop: () => {} };
    }
    const follower: Follower = { onEvent: options.onEvent, onEnd: options.onEnd };
    record.followers.add(follower);
    return { sessionId: record.sessionId, stop: () => record.followers.delete(follower) };
  }

  private newRecord(sessionId: string, now: number): StreamRecord {
    return {
      sessionId,
      events: new BoundedEvents(this.bounds),
      touchedAt: now,
      ended: false,
      followers: new Set(),
    };
  }

  async replayAfter(lastEventId: string): Promise<Replay | undefined> {
    const parsed = parseEventId(lastEventId);
    if (!parsed) return undefined;
    const record = this.streams.get(parsed.streamId);
    if (!record) return undefined;
    record.touchedAt = Date.now();
    const events = record.events.after(parsed.seq).map(({ id, message }) => ({ id, message }));
    return { streamId: parsed.streamId, sessionId: record.sessionId, events };
  }

  async dropStream(streamId: string): Promise<void> {
    const record = this.streams.get(streamId);
    this.streams.delete(streamId);
    if (record) this.endFollowers(record);
  }

  async dropSession(sessionId: string): Promise<void> {
    for (const [id, record] of this.streams) {
      if (record.sessionId !== sessionId) continue;
      this.streams.delete(id);
      this.endFollowers(record);
    }
  }

  private endFollowers(record: StreamRecord): void {
    for (const follower of [...record.followers]) follower.onEnd();
    record.followers.clear();
  }

  /** Number of streams held (for tests and metrics). */
  get size(): number {
    return this.streams.size;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < Math.min(this.ttlMs, 30_000)) return;
    this.lastSweep = now;
    for (const [id, record] of this.streams) {
      if (now - record.touchedAt <= this.ttlMs) continue;
      this.streams.delete(id);
      this.endFollowers(record);
    }
  }
}

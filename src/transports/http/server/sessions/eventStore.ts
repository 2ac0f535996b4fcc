/**
 * @module Where SSE events wait for a client to resume: every event sent with an id is kept
 * until its stream ends or expires, so a client that reconnects with `Last-Event-ID` gets exactly
 * the events of *that* stream it missed. A connection whose client reads slowly also catches up
 * from here, so what waits for a slow reader is bounded by the store. Pluggable: the in-memory
 * store is the default; a shared store (Redis) lets any instance resume any stream.
 */
import type { JsonRpcMessage } from '../../../../jsonrpc/types.js';
import { BoundedEvents, DEFAULT_EVENT_BOUNDS } from './boundedEvents.js';
import type { SharedEventStore } from './cluster/cluster.js';

/** One stored event. */
export interface StoredEvent {
  readonly id: string;
  readonly message: JsonRpcMessage;
}

/** The events a resumption must replay, and the stream they belong to. */
export interface Replay {
  readonly streamId: string;
  readonly sessionId: string;
  readonly events: readonly StoredEvent[];
}

/**
 * Storage of resumable SSE events. Streams mint the ids (`<streamId>:<seq>`, increasing within a
 * stream); the store keeps the events in order so a resumption can replay those after an id. A
 * store may bound what it keeps, but must never drop a response or a request (a call would
 * never be answered): it may replace a progress notification by a later one for the same token
 * and drop the oldest other notifications, as {@link MemoryEventStore} does.
 */
export interface EventStore {
  /** Stores one event of a stream. */
  append(event: {
    streamId: string;
    sessionId: string;
    eventId: string;
    message: JsonRpcMessage;
    /** The message's JSON text, when the caller has it (saves serialising it again). */
    data?: string;
  }): Promise<void>;
  /** The events of the stream `lastEventId` belongs to that come after it; undefined if unknown. */
  replayAfter(lastEventId: string): Promise<Replay | undefined>;
  /** Forgets a stream (it ended and was read, or its session ended). */
  dropStream(streamId: string): Promise<void>;
  /** Forgets every stream of a session. */
  dropSession(sessionId: string): Promise<void>;
}

/** Splits an event id into stream and sequence; undefined when it is not one of ours. */
export function parseEventId(eventId: string): { streamId: string; seq: number } | undefined {
  const colon = eventId.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const seq = Number(eventId.slice(colon + 1));
  if (!Number.isSafeInteger(seq) || seq < 0) return undefined;
  return { streamId: eventId.slice(0, colon), seq };
}

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

/**
 * @module Where SSE events wait for a client to resume: every event sent with an id is kept
 * until its stream ends or expires, so a client that reconnects with `Last-Event-ID` gets exactly
 * the events of *that* stream it missed. A connection whose client reads slowly also catches up
 * from here, so what waits for a slow reader is bounded by the store. Pluggable: the in-memory
 * store (memoryEventStore.ts) is the default; a shared store (Redis) lets any instance resume any
 * stream.
 */
import type { JsonRpcMessage } from '../../../../jsonrpc/types.js';

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

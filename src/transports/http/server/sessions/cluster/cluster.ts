/**
 * @module Serving one Streamable HTTP session from several instances behind a load balancer.
 * Any instance may receive any request of a session, so three things are shared:
 *
 * - a {@link SessionDirectory}: which sessions exist, whose they are, and what they negotiated,
 *   so an instance that never saw a session's `initialize` can serve it;
 * - a {@link ClusterBus} between instances: a client's response to a server request goes back to
 *   the instance that sent the request (its id names it), client notifications reach every
 *   instance, and messages not tied to a request reach the instance holding the session's GET
 *   stream;
 * - a {@link SharedEventStore}: the events of every SSE stream, so a stream is resumed on any
 *   instance (it replays what was missed, then follows what the originating instance sends next).
 *
 * In-memory implementations (memoryCluster.ts) run several instances in one process for tests;
 * `toolwire/redis` provides the Redis ones for real deployments.
 */
import type { JsonObject, JsonRpcMessage, RequestId } from '../../../../../jsonrpc/types.js';
import type { EventStore, StoredEvent } from '../eventStore.js';

/** A session as the directory keeps it. */
export interface SessionRecord {
  /**
   * Who created the session (undefined: no authentication): its identity's id, issuer, subject
   * and client as JSON (older records hold the bare id). Opaque to directories.
   */
  readonly owner: string | undefined;
  /** The server's snapshot of what the session negotiated (opaque here). */
  readonly state: JsonObject;
}

/** Where the sessions of all instances are recorded. Every record expires when idle. */
export interface SessionDirectory {
  /** Records a session (refused if the id exists); resolves once stored. */
  create(options: { sessionId: string; record: SessionRecord; ttlMs: number }): Promise<void>;
  /** The session, unless it was deleted or expired. */
  get(sessionId: string): Promise<SessionRecord | undefined>;
  /** Replaces a live session's state, keeping its expiry. False when the session is gone. */
  update(options: { sessionId: string; state: JsonObject }): Promise<boolean>;
  /** Pushes a session's expiry out (it is in use). */
  touch(options: { sessionId: string; ttlMs: number }): Promise<void>;
  /** Ends a session everywhere. True when it existed. */
  delete(sessionId: string): Promise<boolean>;
}

/** What instances tell one another about sessions. */
export type ClusterMessage =
  /** A message from the client to hand to the session as if received here. */
  | { kind: 'client-message'; sessionId: string; message: JsonRpcMessage }
  /**
   * A message of the server for the client: for the stream of `relatedRequestId` if given (held
   * by the instance that received that request), else for the session's GET stream.
   */
  | {
      kind: 'deliver';
      sessionId: string;
      message: JsonRpcMessage;
      relatedRequestId?: RequestId;
    }
  /** The session's state changed (e.g. its log level): replicas apply it. */
  | { kind: 'session-state'; sessionId: string; state: JsonObject }
  /** The session was deleted: replicas close. */
  | { kind: 'session-ended'; sessionId: string }
  /** The sender now holds the session's GET stream: others stop delivering to theirs. */
  | { kind: 'listener'; sessionId: string }
  /** An application event (see `toolwire/redis`'s `broadcast`). */
  | { kind: 'app'; topic: string; data: unknown };

/** Messages between instances. Delivery is best effort (pub/sub): nothing here is durable. */
export interface ClusterBus {
  /** This instance's id, unique among live instances (visible-ASCII, no '.'). */
  readonly instanceId: string;
  /** Sends to one instance (by id), or to every other instance with the id `'others'`. */
  publish(to: string, message: ClusterMessage): Promise<void>;
  /** Receives what other instances publish to this one or to all; returns the unsubscribe. */
  subscribe(listener: (message: ClusterMessage) => void): Promise<() => void>;
}

/** A stream's events after an id, and whether the stream has ended. */
export interface FollowedReplay {
  readonly sessionId: string;
  readonly events: readonly StoredEvent[];
  readonly ended: boolean;
}

/** An event store every instance reads: streams can be resumed on another instance. */
export interface SharedEventStore extends EventStore {
  /**
   * Records a stream as it opens, before its first event, so that a client resuming from the
   * stream's priming event (a poll right after `closeStream()`) is recognised on any instance.
   */
  openStream(stream: { streamId: string; sessionId: string }): Promise<void>;
  /** Records that a stream gets no more events (its responses are all stored). */
  endStream(streamId: string): Promise<void>;
  /**
   * Replays the events after `lastEventId` and then calls `onEvent` with each one appended later,
   * until the stream ends (`onEnd`) or the returned function is called. Undefined when the
   * stream is unknown.
   */
  follow(options: {
    lastEventId: string;
    onEvent: (event: StoredEvent) => void;
    onEnd: () => void;
  }): Promise<{ sessionId: string; stop: () => void } | undefined>;
}

/** Everything a Streamable HTTP handler needs to share sessions with other instances. */
export interface HttpCluster {
  readonly sessions: SessionDirectory;
  readonly bus: ClusterBus;
  readonly events: SharedEventStore;
}

/** The instance a request id names, when an instance of a cluster minted it (`<instance>.<n>`). */
export function instanceOfRequestId(id: RequestId | null | undefined): string | undefined {
  if (typeof id !== 'string') return undefined;
  const dot = id.indexOf('.');
  return dot > 0 ? id.slice(0, dot) : undefined;
}

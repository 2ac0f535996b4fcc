/**
 * @module The hooks instrumentation puts around a connection's messages: outgoing requests and
 * notifications (wrapped, so trace context can be added to their `_meta`), incoming
 * notifications (wrapped, so what handles them runs in their span), and what sessions pass to
 * them. Absent, a connection runs none of it: no closure, no extra call per message.
 */
import type { MessageInfo } from './transport.js';
import type { JsonObject, JsonRpcNotification, RequestId } from './types.js';

/** An outgoing request as a {@link RequestInterceptor} sees it, before it is sent. */
export interface OutgoingRequest {
  /** The id the request is sent with. */
  readonly id: RequestId;
  readonly method: string;
  /** The params as the caller gave them (a progress token is added afterwards, when asked). */
  readonly params: JsonObject | undefined;
  /**
   * What the caller handed the interceptor with this request (`RequestOptions.scope`): the
   * client's tool call it is sent for.
   */
  readonly scope?: unknown;
}

/**
 * Wraps every outgoing request (instrumentation: traces, metrics). It must call `send` once,
 * with the request's params or a copy it extended (trace context in `_meta`), and return what
 * `send` returns, observed as it likes; `send` rejects as `Connection.request` does.
 */
export type RequestInterceptor = (
  request: OutgoingRequest,
  send: (params: JsonObject | undefined) => Promise<JsonObject>,
) => Promise<JsonObject>;

/** An outgoing notification as a {@link NotificationInterceptor} sees it, before it is sent. */
export interface OutgoingNotification {
  readonly method: string;
  readonly params: JsonObject | undefined;
}

/**
 * Wraps every outgoing notification, `notifications/cancelled` included. Like a
 * {@link RequestInterceptor}: it calls `send` once, with the params or an extended copy, and
 * returns what `send` returns (the transport accepted the message, or failed to).
 */
export type NotificationInterceptor = (
  notification: OutgoingNotification,
  send: (params: JsonObject | undefined) => Promise<void>,
) => Promise<void>;

/**
 * Wraps the handling of every incoming notification, progress and cancellation included. It
 * must call `handle` once, synchronously (handling a notification is synchronous).
 */
export type NotificationObserver = (
  notification: JsonRpcNotification,
  info: MessageInfo | undefined,
  handle: () => void,
) => void;

/** An incoming request as a {@link SessionObserver} sees it. */
export interface IncomingRequestView {
  readonly id: RequestId;
  readonly method: string;
  readonly params: JsonObject | undefined;
  /** What the transport knows of the message (its peer, its HTTP version...). */
  readonly info: MessageInfo | undefined;
}

/**
 * Observes one session (a server's with one client, or a client's with its server) beyond what
 * its own request hooks see. Every member is optional.
 */
export interface SessionObserver {
  /**
   * Wraps an incoming request the session serves: on a server, those no middleware sees
   * (`initialize`, and any request before it); on a client, the server's requests (sampling,
   * elicitation, roots, ping). It must call `handle` once and return what it returns; `handle`
   * rejects with the error the request is answered with.
   */
  readonly incomingRequest?: (
    request: IncomingRequestView,
    handle: () => Promise<JsonObject>,
  ) => Promise<JsonObject>;
  readonly incomingNotification?: NotificationObserver;
  /** Wraps the requests the session sends (a client's hook is its `instrument` itself). */
  readonly outgoingRequest?: RequestInterceptor;
  readonly outgoingNotification?: NotificationInterceptor;
  /**
   * The session ended (its connection closed): with `error` when it ended with one (the peer
   * went away, the handshake failed). Called once.
   */
  readonly ended?: (outcome: { readonly error?: unknown }) => void;
}

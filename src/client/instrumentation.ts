/**
 * @module The client's instrumentation hook: one function around every request the client sends
 * (`initialize`, `tools/list`, `tools/call`, the task methods, `ping`...), for traces and metrics
 * (`toolwire/otel` builds one), and optionally an observer of the rest of each session (the
 * server's requests, notifications both ways, its end). Without it the client's requests go
 * straight to the connection and nothing of this exists.
 */
import type { ConnectionOptions, IncomingRequestContext } from '../jsonrpc/connection.js';
import type { SessionObserver } from '../jsonrpc/interceptors.js';
import type { Transport, TransportNetwork } from '../jsonrpc/transport.js';
import type { JsonObject, JsonRpcRequest, RequestId } from '../jsonrpc/types.js';

export type { IncomingRequestView, SessionObserver } from '../jsonrpc/interceptors.js';

/** What the instrumentation knows of the client's session; read when needed, it stays current. */
export interface ClientSessionView {
  /** The negotiated revision; undefined until `initialize` is answered. */
  readonly protocolVersion: string | undefined;
  /** The session id the transport carries (Streamable HTTP `Mcp-Session-Id`), once assigned. */
  readonly sessionId: string | undefined;
  /** How messages travel (`pipe`, `tcp`, `inproc`), when the transport says. */
  readonly networkTransport: Transport['networkTransport'];
  /** What the transport knows of the network (HTTP: the protocol, the server's host and port). */
  readonly network: TransportNetwork | undefined;
}

/** One outgoing request, before it is sent. */
export interface ClientRequest {
  /** The JSON-RPC id it is sent with. */
  readonly id: RequestId;
  readonly method: string;
  /** The params as the client built them (a progress token is added afterwards, when asked). */
  readonly params: JsonObject | undefined;
  /** The session the request belongs to. */
  readonly session: ClientSessionView;
}

/**
 * Wraps every request the client sends. It must call `send` once, with the request's params or
 * a copy it extended (e.g. trace context in `_meta`), and return what `send` returns; `send`
 * resolves with the result or rejects with an `RpcError` (the server's error) or a `LocalError`
 * (timeout, cancellation, closed connection).
 */
export interface ClientInstrumentation {
  (
    request: ClientRequest,
    send: (params: JsonObject | undefined) => Promise<JsonObject>,
  ): Promise<JsonObject>;
  /**
   * Called when `connect()` starts a session: observes what the function above does not see
   * (the server's requests, notifications both ways, the session's end). Optional.
   */
  readonly session?: (session: ClientSessionView) => SessionObserver | undefined;
}

/** How the client answers the server's requests. */
export type ServerRequestHandler = (
  request: JsonRpcRequest,
  context: IncomingRequestContext,
) => Promise<JsonObject>;

/** The connection hooks of one session's instrumentation, and its handler of server requests. */
export interface SessionHooks {
  readonly options: Pick<
    ConnectionOptions,
    'interceptRequest' | 'interceptNotification' | 'observeNotification'
  >;
  /** Answers the server's requests: `answer`, wrapped by the observer when it wants. */
  readonly request: ServerRequestHandler;
  readonly observer: SessionObserver | undefined;
}

/** What `instrument` puts around one session of the client. */
export function sessionHooks(
  instrument: ClientInstrumentation,
  session: ClientSessionView,
  answer: ServerRequestHandler,
): SessionHooks {
  const observer = instrument.session?.(session);
  const options: SessionHooks['options'] = {
    interceptRequest: (request, send) => instrument({ ...request, session }, send),
    ...(observer?.outgoingNotification === undefined
      ? {}
      : { interceptNotification: observer.outgoingNotification }),
    ...(observer?.incomingNotification === undefined
      ? {}
      : { observeNotification: observer.incomingNotification }),
  };
  const observe = observer?.incomingRequest;
  const request: ServerRequestHandler = observe
    ? (incoming, context) =>
        observe(
          { id: incoming.id, method: incoming.method, params: incoming.params, info: context.info },
          () => answer(incoming, context),
        )
    : answer;
  return { options, request, observer };
}

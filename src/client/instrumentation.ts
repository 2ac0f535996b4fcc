/**
 * @module The client's instrumentation hook: one function around every request the client sends
 * (`initialize`, `tools/list`, `tools/call`, the task methods, `ping`...), for traces and metrics
 * (`toolwire/otel` builds one), and optionally an observer of the rest of each session (the
 * server's requests, notifications both ways, its end) and of each tool call the person decides
 * about (the approval's steps). Without it the client's requests go straight to the connection
 * and nothing of this exists.
 */
import type { ConnectionOptions, IncomingRequestContext } from '../jsonrpc/connection.js';
import { LocalError } from '../jsonrpc/errors.js';
import type { SessionObserver } from '../jsonrpc/interceptors.js';
import type { Transport, TransportNetwork } from '../jsonrpc/transport.js';
import type { JsonObject, JsonRpcRequest, RequestId } from '../jsonrpc/types.js';
import type { ApprovalObserver } from './approval/steps.js';

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
  /**
   * On the first `tools/call` of a call the instrumentation observes (see
   * {@link ClientInstrumentation.toolCall}): what `toolCall` returned for it.
   */
  readonly call?: ToolCallScope;
}

/** A tool call as the client starts it, before its approval. */
export interface ToolCallView {
  readonly name: string;
  /** What it is called with: it may be private (`toolwire/otel` records it only when asked). */
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly session: ClientSessionView;
}

/**
 * One tool call from the moment `callTool` starts it: it hears the approval's steps, then its
 * first `tools/call` request carries it (`ClientRequest.call`), and `end` is called once when
 * the call is over, whether a request was sent or not (denied, cancelled while asked...).
 */
export interface ToolCallScope extends ApprovalObserver {
  /** The call ended: with the error it failed with, if it did. */
  end(error?: unknown): void;
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
  /**
   * Called when `callTool` starts a call the client's approval policy decides about, before
   * anything is asked: what it returns hears the approval and goes with the call's request.
   * Optional; calls without a policy are not passed to it.
   */
  readonly toolCall?: (call: ToolCallView) => ToolCallScope | undefined;
}

/** How the client answers the server's requests. */
export type ServerRequestHandler = (
  request: JsonRpcRequest,
  context: IncomingRequestContext,
) => Promise<JsonObject>;

/** What an instrumentation puts around one session of the client. */
export interface SessionHooks {
  /** The connection's hooks. */
  readonly options: Pick<
    ConnectionOptions,
    'interceptRequest' | 'interceptNotification' | 'observeNotification'
  >;
  /** Answers the server's requests: `answer`, wrapped by the observer when it wants. */
  readonly request: ServerRequestHandler;
  /**
   * The session ended: with `failure` (connect() failed), or ended by the server (`byServer`:
   * told as a `closed` error), or by the client.
   */
  ended(failure: unknown, byServer: boolean): void;
  /** What observes a call the approval policy decides about, if the instrumentation wants to. */
  toolCall(name: string, args: Readonly<Record<string, unknown>>): ToolCallScope | undefined;
}

/** A live view of the session over `transport`, its revision read from `revision`. */
function sessionView(transport: Transport, revision: () => string | undefined): ClientSessionView {
  return {
    get protocolVersion() {
      return revision();
    },
    get sessionId() {
      return transport.sessionId;
    },
    networkTransport: transport.networkTransport,
    network: transport.network,
  };
}

/** What `instrument` puts around one session of the client over `connection.transport`. */
export function sessionHooks(
  instrument: ClientInstrumentation,
  connection: { transport: Transport; revision: () => string | undefined },
  answer: ServerRequestHandler,
): SessionHooks {
  const session = sessionView(connection.transport, connection.revision);
  const observer = instrument.session?.(session);
  const options: SessionHooks['options'] = {
    interceptRequest: ({ id, method, params, scope }, send) =>
      instrument(
        scope === undefined
          ? { id, method, params, session }
          : { id, method, params, session, call: scope as ToolCallScope },
        send,
      ),
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
  return {
    options,
    request,
    ended: (failure, byServer) =>
      observer?.ended?.({
        error:
          failure ??
          (byServer ? new LocalError('closed', 'The server ended the session') : undefined),
      }),
    toolCall: (name, args) => instrument.toolCall?.({ name, arguments: args, session }),
  };
}

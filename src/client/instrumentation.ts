/**
 * @module The client's instrumentation hook: one function around every request the client sends
 * (`initialize`, `tools/list`, `tools/call`, the task methods, `ping`...), for traces and metrics
 * (`toolwire/otel` builds one). Without it the client's requests go straight to the connection.
 */
import type { Transport } from '../jsonrpc/transport.js';
import type { JsonObject, RequestId } from '../jsonrpc/types.js';

/** What the instrumentation knows of the client's session; read when needed, it stays current. */
export interface ClientSessionView {
  /** The negotiated revision; undefined until `initialize` is answered. */
  readonly protocolVersion: string | undefined;
  /** The session id the transport carries (Streamable HTTP `Mcp-Session-Id`), once assigned. */
  readonly sessionId: string | undefined;
  /** How messages travel (`pipe`, `tcp`, `inproc`), when the transport says. */
  readonly networkTransport: Transport['networkTransport'];
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
export type ClientInstrumentation = (
  request: ClientRequest,
  send: (params: JsonObject | undefined) => Promise<JsonObject>,
) => Promise<JsonObject>;

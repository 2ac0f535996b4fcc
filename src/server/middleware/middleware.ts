/**
 * @module Server middleware: functions around the handling of each request after `initialize`
 * (`tools/list`, `tools/call`, the task methods, `logging/setLevel`, `ping`). A middleware sees
 * the method, params, session, caller and, for `tools/call`, the tool; it calls `next()` to go on,
 * or answers itself (return a result, throw an `RpcError` or, for `tools/call`, a `ToolError`,
 * which middleware outside it receive from `next()` as the `isError` result the client gets), and
 * may transform what `next()` returns or time and log the request.
 *
 * The built-in policy runs as stages of the same chain, in this order from the outside in:
 * `access` (visibility and scopes) → `rateLimit` (rate limits and the concurrency cap) →
 * `sanitize` (the output stage of `tools/call`) → the handler. A middleware is placed relative to
 * a stage (`server.use(mw, { before: 'access' })`); by default it runs innermost, around the
 * handler, so what it returns is sanitised too. With no middleware registered the server runs the
 * same stages inline, without building a chain or a promise per request.
 */
import type { Identity, PeerAddress, TransportNetwork } from '../../jsonrpc/transport.js';
import type { JsonObject, RequestId } from '../../jsonrpc/types.js';
import type { Tool } from '../../protocol/types.js';
import type { ServerInstrumentation } from './instrumentation.js';
import type { SessionInfo } from '../toolContext.js';

/** What a middleware sees of one request. */
export interface MiddlewareRequest {
  /** The JSON-RPC method, e.g. `tools/call`. */
  readonly method: string;
  /** The request's params, as received (not yet validated by the core). */
  readonly params: JsonObject | undefined;
  /** The JSON-RPC id of the request. */
  readonly requestId: RequestId;
  /** The session the request arrived on. */
  readonly session: SessionInfo;
  /** The caller, as the transport (an access token, `authenticate`) or `connect()` established it. */
  readonly identity: Identity | undefined;
  /** The caller's network address, when the transport knows it (HTTP). */
  readonly clientAddress: string | undefined;
  /**
   * How the request arrived, in OpenTelemetry's `network.transport` terms: `pipe` (stdio), `tcp`
   * (HTTP), `inproc` (in-memory transport); undefined for a transport that does not say.
   */
  readonly networkTransport: 'pipe' | 'tcp' | 'inproc' | undefined;
  /** What the session's transport knows of the network (`protocolName: 'http'`), when it says. */
  readonly network: TransportNetwork | undefined;
  /**
   * The socket the request came on (HTTP), for telemetry (`client.address`, `client.port`): the
   * network's view of the caller, never an access decision's (see `clientAddress`).
   */
  readonly peer: PeerAddress | undefined;
  /** The HTTP version of the request that carried it (`1.1`), over HTTP; else undefined. */
  readonly httpVersion: string | undefined;
  /**
   * For `tools/call`: the definition of the tool named in the params, as this session's revision
   * lists it, when such a tool is registered and enabled (the `access` stage decides whether this
   * caller may call it). Otherwise undefined.
   */
  readonly tool: Tool | undefined;
  /** Aborted when the client cancels the request, its deadline passes or the session ends. */
  readonly signal: AbortSignal;
}

/** Goes on to the next middleware, stage or the handler; resolves with what it answered. */
export type MiddlewareNext = () => Promise<JsonObject>;

/** A server middleware (see the module documentation). */
export interface Middleware {
  (request: MiddlewareRequest, next: MiddlewareNext): JsonObject | Promise<JsonObject>;
  /**
   * Hooks for what middleware do not see (`initialize`, notifications both ways, the server's
   * requests to the client, the end of a session): `server.use()` installs them for the
   * sessions connected from then on. `serverTelemetry()` of `toolwire/otel` has them.
   */
  readonly instrumentation?: ServerInstrumentation;
}

/** The built-in stages, from the outside in. */
export const POLICY_STAGES = ['access', 'rateLimit', 'sanitize'] as const;

/** A built-in stage a middleware can be placed around. */
export type PolicyStage = (typeof POLICY_STAGES)[number];

/** Where {@link Middleware} goes in the chain: before (outside) or after (inside) a stage. */
export type MiddlewarePlacement = { before: PolicyStage } | { after: PolicyStage };

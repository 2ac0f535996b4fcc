/**
 * @module The server's 2026-07-28 front as the Streamable HTTP handler reaches it (the server
 * layer's `ModernFront` is one): a request served on its own, its notifications sent through a
 * channel the handler gives (the request's SSE stream).
 */
import type { Deferred } from '../../../jsonrpc/deferred.js';
import type { IncomingRequestContext } from '../../../jsonrpc/incomingRequest.js';
import type { Identity, TransportNetwork } from '../../../jsonrpc/transport.js';
import type { JsonObject, JsonRpcRequest, RequestId } from '../../../jsonrpc/types.js';
import type { ParamHeader } from '../../../protocol/eras/rev2026/paramHeaders.js';

/** How a 2026 request's notifications reach its client, and who sent it. */
export interface StatelessChannel {
  notify(method: string, params: JsonObject, relatedRequestId: RequestId): void;
  readonly identity: Identity | undefined;
  readonly clientAddress: string | undefined;
  readonly networkTransport: 'pipe' | 'tcp' | 'inproc' | undefined;
  readonly network: TransportNetwork | undefined;
}

/** What a 2026 request is answered with. */
export type StatelessOutcome = JsonObject | Promise<JsonObject> | Deferred<JsonObject>;

/** The server's 2026 front as the HTTP handler reaches it. */
export interface StatelessEndpoint {
  /** The `x-mcp-header` annotations of the enabled tool `name` (undefined: none, or no such tool). */
  paramHeaders(name: string): readonly ParamHeader[] | undefined;
  serve(
    request: JsonRpcRequest,
    context: IncomingRequestContext,
    channel: StatelessChannel,
  ): StatelessOutcome;
}

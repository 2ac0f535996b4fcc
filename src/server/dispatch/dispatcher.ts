/**
 * @module The dispatcher: lookup -> middleware chain (at this one call site) -> handler. With no
 * middleware registered a request goes straight to its handler: no promise, no allocation on the
 * way (the tools/call fast path depends on it). Era encoding needs no step: handlers answer in
 * their revision's shape (the scope's profile cuts results down and, in 2026, adds the envelope:
 * `resultType`, the server's identity, cache hints), so a cached page or a synchronous result
 * passes through untouched.
 */
import type { IncomingRequestContext } from '../../jsonrpc/connection.js';
import { RawJson } from '../../jsonrpc/rawJson.js';
import type { JsonObject, JsonRpcRequest } from '../../jsonrpc/types.js';
import { methodNotFound } from '../../protocol/methods.js';
import type { MiddlewareChain } from '../middleware/middlewareChain.js';
import { PolicyRequest } from '../middleware/middlewareRequest.js';
import type { HandlerOutcome, HandlerTable } from './handlerTable.js';
import type { RequestScope } from './requestScope.js';

/** Serves requests of one era from its handler table, through the server-wide middleware. */
export class Dispatcher<S extends RequestScope = RequestScope> {
  constructor(
    private readonly table: HandlerTable<S>,
    /** The server-wide middleware (empty: requests take the inline path). */
    private readonly chain: MiddlewareChain,
  ) {}

  /** True when the table has a handler for `method`. */
  serves(method: string): boolean {
    return this.table.has(method);
  }

  /** Serves one request: through the middleware when there are any, else inline. */
  dispatch(request: JsonRpcRequest, context: IncomingRequestContext, scope: S): HandlerOutcome {
    if (this.chain.empty) return this.serve(request, context, scope);
    return this.throughChain(request, context, scope);
  }

  /** Serves one request without middleware: lookup, then the handler. */
  serve(request: JsonRpcRequest, context: IncomingRequestContext, scope: S): HandlerOutcome {
    const handler = this.table.get(request.method);
    if (handler === undefined) throw methodNotFound(request.method);
    return handler.serve(request, context, scope);
  }

  /**
   * A request through the middleware (see middleware/middleware.ts). Unknown methods go through
   * too, so a middleware sees (and may limit) them before they are refused.
   */
  private throughChain(
    request: JsonRpcRequest,
    context: IncomingRequestContext,
    scope: S,
  ): Promise<JsonObject> {
    const chain = this.chain;
    const handler = this.table.get(request.method);
    const port = scope.port;
    const policy = new PolicyRequest(
      {
        method: request.method,
        params: request.params,
        requestId: request.id,
        session: scope.session,
        identity: scope.identityOf(context),
        clientAddress: scope.clientAddressOf(context),
        networkTransport: port.networkTransport,
        network: port.network,
        tool: handler?.toolOf?.(request, scope),
      },
      context,
    );
    if (handler?.chained) return handler.chained(chain, { request, context, policy }, scope);
    let page: RawJson | undefined;
    const answered = chain.run(policy, undefined, () => {
      const outcome = this.serve(request, context, scope);
      if (!(outcome instanceof RawJson)) return outcome;
      // A cached tools/list page: middleware see (and may change) the value itself.
      page = outcome;
      return outcome.value as JsonObject;
    });
    // Passed through unchanged: sent as the cached text again, not serialised anew.
    return answered.then((result) =>
      page !== undefined && result === page.value ? (page as unknown as JsonObject) : result,
    );
  }
}

/**
 * @module The server's handler table, built from the method descriptors: one handler per method
 * an era has. A method the era lacks (or no handler serves) is absent, so the dispatcher answers
 * it -32601 without asking which era it is in.
 */
import type { IncomingRequestContext } from '../../jsonrpc/connection.js';
import type { Deferred } from '../../jsonrpc/deferred.js';
import type { JsonObject, JsonRpcRequest } from '../../jsonrpc/types.js';
import type { Era } from '../../protocol/eras/era.js';
import type { RequestMethod } from '../../protocol/methods.js';
import type { Tool } from '../../protocol/types.js';
import type { MiddlewareRequest } from '../middleware/middleware.js';
import type { MiddlewareChain } from '../middleware/middlewareChain.js';
import type { RequestScope } from './requestScope.js';

/** What a handler answers: a result now, later, or deferred (the connection's fast path). */
export type HandlerOutcome = JsonObject | Promise<JsonObject> | Deferred<JsonObject>;

/** A request on its way through the middleware chain. */
export interface ChainedRequest {
  readonly request: JsonRpcRequest;
  readonly context: IncomingRequestContext;
  /** The request as middleware see it. */
  readonly policy: MiddlewareRequest;
}

/** How one method is served. */
export interface MethodHandler<S extends RequestScope = RequestScope> {
  /** Serves the request (after any middleware). */
  serve(request: JsonRpcRequest, context: IncomingRequestContext, scope: S): HandlerOutcome;
  /** The tool the request names, shown to middleware as `request.tool` (tools/call). */
  toolOf?(request: JsonRpcRequest, scope: S): Tool | undefined;
  /**
   * Runs the request through the chain itself, when the method's own stages sit inside it
   * (tools/call: access, rateLimit, sanitize). Without it the chain wraps `serve`.
   */
  chained?(chain: MiddlewareChain, call: ChainedRequest, scope: S): Promise<JsonObject>;
}

/** A handler and the method it serves. */
export interface HandlerBinding<S extends RequestScope = RequestScope> {
  readonly descriptor: RequestMethod<unknown, unknown>;
  readonly handler: MethodHandler<S>;
}

/** Binds a handler to a request descriptor. */
export function bind<S extends RequestScope, P, R>(
  descriptor: RequestMethod<P, R>,
  handler: MethodHandler<S>,
): HandlerBinding<S> {
  return { descriptor, handler };
}

/** The handlers of one era, by method name. */
export type HandlerTable<S extends RequestScope = RequestScope> = ReadonlyMap<
  string,
  MethodHandler<S>
>;

/**
 * Builds an era's handler table: a binding whose method the era lacks is left out (-32601 by
 * absence); two bindings of one method are a programming error.
 */
export function handlerTable<S extends RequestScope>(
  era: Era,
  bindings: readonly HandlerBinding<S>[],
): HandlerTable<S> {
  const table = new Map<string, MethodHandler<S>>();
  for (const { descriptor, handler } of bindings) {
    if (!era.methods.has(descriptor.method)) continue;
    if (table.has(descriptor.method))
      throw new Error(`Two handlers for ${descriptor.method} in the ${era.name} era`);
    table.set(descriptor.method, handler);
  }
  return table;
}

/** @module The handlers of `tools/list` and `tools/call`, shared by every era. */
import { Deferred } from '../../jsonrpc/deferred.js';
import type { IncomingRequestContext } from '../../jsonrpc/connection.js';
import type { JsonObject, JsonRpcRequest } from '../../jsonrpc/types.js';
import { CallTool, ListTools } from '../../protocol/methods.js';
import { parseCursor } from '../../protocol/params.js';
import { CallPipeline } from '../call/callPipeline.js';
import { bind, type HandlerBinding, type HandlerOutcome } from './handlerTable.js';
import type { RequestScope } from './requestScope.js';
import type { ServerServices } from './serverServices.js';

/** A round's outcome as the promise the chained path answers with. */
function asPromise(outcome: HandlerOutcome): Promise<JsonObject> {
  return outcome instanceof Deferred ? outcome.toPromise() : Promise.resolve(outcome);
}

/** The tools handlers of `server`. */
export function toolBindings(server: ServerServices): HandlerBinding[] {
  const pipeline = new CallPipeline(server.callDependencies);
  const inline = (request: JsonRpcRequest, context: IncomingRequestContext, scope: RequestScope) =>
    pipeline.inline(scope.port, {
      id: request.id,
      params: request.params,
      incoming: context,
      identity: scope.identityOf(context),
      clientAddress: scope.clientAddressOf(context),
      taskGeneration: scope.taskGeneration,
    }) as unknown as HandlerOutcome;
  return [
    bind(ListTools, {
      serve: (request, context, scope) =>
        server.listTools(
          scope.port,
          scope.identityOf(context),
          parseCursor(request.params),
        ) as unknown as JsonObject,
    }),
    bind(CallTool, {
      serve: (request, context, scope) => {
        // Input pushed (2025): the call as it is, no closure on the fast path.
        if (scope.openCall === undefined) return inline(request, context, scope);
        return scope
          .openCall(request.params, context)
          .run(scope.profile, () => inline(request, context, scope));
      },
      toolOf: (request, scope) => server.toolDefinition(request.params?.['name'], scope.profile),
      chained: (chain, { request, context, policy }, scope) => {
        const call = () =>
          pipeline.chained(chain, scope.port, {
            id: request.id,
            params: request.params,
            incoming: context,
            identity: policy.identity,
            clientAddress: policy.clientAddress,
            taskGeneration: scope.taskGeneration,
            policy,
          });
        if (scope.openCall === undefined) return call();
        return asPromise(scope.openCall(request.params, context).run(scope.profile, call));
      },
    }),
  ];
}

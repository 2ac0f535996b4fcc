/** @module The handlers of `tools/list` and `tools/call`, shared by every era. */
import type { JsonObject } from '../../jsonrpc/types.js';
import { CallTool, ListTools } from '../../protocol/methods.js';
import { parseCursor } from '../../protocol/params.js';
import { CallPipeline } from '../call/callPipeline.js';
import { bind, type HandlerBinding, type HandlerOutcome } from './handlerTable.js';
import type { ServerServices } from './serverServices.js';

/** The tools handlers of `server`. */
export function toolBindings(server: ServerServices): HandlerBinding[] {
  const pipeline = new CallPipeline(server.callDependencies);
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
      serve: (request, context, scope) =>
        pipeline.inline(scope.port, {
          id: request.id,
          params: request.params,
          incoming: context,
          identity: scope.identityOf(context),
          clientAddress: scope.clientAddressOf(context),
        }) as unknown as HandlerOutcome,
      toolOf: (request, scope) => server.toolDefinition(request.params?.['name'], scope.profile),
      chained: (chain, { request, context, policy }, scope) =>
        pipeline.chained(chain, scope.port, {
          id: request.id,
          params: request.params,
          incoming: context,
          identity: policy.identity,
          clientAddress: policy.clientAddress,
          policy,
        }),
    }),
  ];
}

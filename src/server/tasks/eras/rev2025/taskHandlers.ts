/**
 * @module The handlers of the 2025-11-25 task methods, for the 2025 era's handler table: offered
 * only where the scope says tasks are (else -32601, as if the method did not exist), each bound
 * to its requestor.
 */
import type { IncomingRequestContext } from '../../../../jsonrpc/connection.js';
import type { JsonRpcRequest } from '../../../../jsonrpc/types.js';
import { methodNotFound } from '../../../../protocol/methods.js';
import { bind, type HandlerBinding } from '../../../dispatch/handlerTable.js';
import type { RequestScope } from '../../../dispatch/requestScope.js';
import type { ServerServices } from '../../../dispatch/serverServices.js';
import { ownerOf } from '../../taskOwner.js';
import { TASK_METHODS, type TaskMethod } from './taskMethods.js';

/** The task handlers of `server`. */
export function taskBindings(server: ServerServices): HandlerBinding[] {
  return TASK_METHODS.map(([descriptor, method]) =>
    bind(descriptor, {
      serve: (request, context, scope) => serveTask(server, method, { request, context, scope }),
    }),
  );
}

function serveTask(
  server: ServerServices,
  method: TaskMethod,
  call: { request: JsonRpcRequest; context: IncomingRequestContext; scope: RequestScope },
) {
  const { request, context, scope } = call;
  const runtime = server.tasks;
  const identity = scope.identityOf(context);
  if (!runtime || !scope.tasksOffered(identity)) throw methodNotFound(request.method);
  const sessionId = scope.session.id;
  return method(runtime, {
    params: request.params,
    owner: ownerOf(sessionId, identity),
    sessionId,
    incoming: context,
  });
}

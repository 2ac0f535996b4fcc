/**
 * @module The handlers of the task methods: offered only where the scope says tasks are (else
 * -32601, as if the method did not exist), each bound to its requestor.
 */
import type { IncomingRequestContext } from '../../jsonrpc/connection.js';
import type { JsonRpcRequest } from '../../jsonrpc/types.js';
import { methodNotFound } from '../../protocol/methods.js';
import { TASK_METHODS, type TaskMethod } from '../taskMethods.js';
import { ownerOf } from '../taskRuntime.js';
import { bind, type HandlerBinding } from './handlerTable.js';
import type { RequestScope } from './requestScope.js';
import type { ServerServices } from './serverServices.js';

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

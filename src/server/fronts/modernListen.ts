/**
 * @module `subscriptions/listen` (2026-07-28, basic/patterns/subscriptions): the request stays
 * open as a stream of the notifications the client asked for. The first message is
 * `notifications/subscriptions/acknowledged` with what the server agreed to (of the filter,
 * `toolsListChanged`, and the tasks extension's `taskIds`: the caller's own tasks among those
 * named, each then told as `notifications/tasks` on every change, see taskWatch.ts);
 * every notification carries the listen's id as `io.modelcontextprotocol/subscriptionId`. It
 * ends when the client cancels (stdio: `notifications/cancelled`; HTTP: closing the stream) or,
 * gracefully, with a `complete` response when the server shuts down.
 */
import type { IncomingRequestContext } from '../../jsonrpc/connection.js';
import { Deferred } from '../../jsonrpc/deferred.js';
import { ErrorCode, LocalError, RpcError } from '../../jsonrpc/errors.js';
import { isPlainObject } from '../../jsonrpc/guards.js';
import type { JsonObject, JsonRpcRequest } from '../../jsonrpc/types.js';
import { META } from '../../protocol/eras/rev2026/requestMeta.js';
import {
  SubscriptionsAcknowledged,
  TasksNotification,
  ToolListChanged,
} from '../../protocol/methods.js';
import type { ListenStreams } from '../notify/listenStreams.js';
import { rateLimitSubject } from '../policy/rateLimitPolicy.js';
import type { ModernScope } from './modernScope.js';
import { declaresTasks, tasksExtensionMissing } from '../tasks/eras/rev2026/extensionCall.js';
import { watchedIds, watchTasks } from '../tasks/eras/rev2026/taskWatch.js';
import { extensionOwnerOf } from '../tasks/taskOwner.js';
import type { TaskRuntime } from '../tasks/taskRuntime.js';

/** What a listen is opened with: the server's listens, and its tasks (when it runs them). */
export interface ListenServer {
  readonly streams: ListenStreams;
  readonly tasks: TaskRuntime | undefined;
}

/** Opens a listen; its outcome settles when the stream ends. */
export function openListen(
  server: ListenServer,
  call: { request: JsonRpcRequest; context: IncomingRequestContext },
  scope: ModernScope,
): Deferred<JsonObject> {
  const { request, context } = call;
  const filter = request.params?.['notifications'];
  if (!isPlainObject(filter))
    throw new RpcError(
      ErrorCode.InvalidParams,
      'subscriptions/listen needs a "notifications" filter object',
    );
  const taskIds = watchedIds(filter['taskIds']);
  if (taskIds !== undefined && !declaresTasks(scope.clientCapabilities))
    throw tasksExtensionMissing('subscriptions/listen with taskIds');
  const id = request.id;
  const agreed: JsonObject = {};
  if (filter['toolsListChanged'] === true) agreed['toolsListChanged'] = true;
  const meta = { [META.subscriptionId]: id };
  const done = new Deferred<JsonObject>();
  const client = rateLimitSubject(scope.identityOf(context), scope.clientAddressOf(context));
  const remove = server.streams.add(
    {
      toolsListChanged: agreed['toolsListChanged'] === true,
      toolsChanged: () => scope.sendNotification(ToolListChanged.method, { _meta: meta }, id),
      end: () => done.resolve(scope.profile.complete({ _meta: { ...meta } })),
    },
    client,
  );
  // Acknowledged once it is counted (a listen over the cap is refused, never acknowledged).
  const acknowledge = () =>
    scope.sendNotification(
      SubscriptionsAcknowledged.method,
      { _meta: meta, notifications: agreed },
      id,
    );
  let stopWatching = () => {};
  let ended = false;
  context.cancellation.onCancel(() => {
    ended = true;
    remove();
    stopWatching();
    done.reject(new LocalError('aborted', 'The client ended the subscription'));
  });
  if (taskIds === undefined || server.tasks === undefined) {
    if (taskIds !== undefined) agreed['taskIds'] = [];
    acknowledge();
    return done;
  }
  // The tasks are looked up (the caller's own only) before the acknowledgement names them.
  void watchTasks(
    server.tasks,
    { owner: extensionOwnerOf(scope.identityOf(context)), taskIds },
    (task) => scope.sendNotification(TasksNotification.method, { ...task, _meta: meta }, id),
  ).then((watch) => {
    if (ended) return watch.stop();
    stopWatching = () => watch.stop();
    agreed['taskIds'] = watch.agreed;
    acknowledge();
    watch.start();
  });
  return done;
}

/**
 * @module `subscriptions/listen` (2026-07-28, basic/patterns/subscriptions): the request stays
 * open as a stream of the notifications the client asked for. The first message is
 * `notifications/subscriptions/acknowledged` with what the server agreed to (of the filter, only
 * `toolsListChanged`: toolwire serves tools, and the tasks extension's `taskIds` come with it);
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
import { SubscriptionsAcknowledged, ToolListChanged } from '../../protocol/methods.js';
import type { ListenStreams } from '../notify/listenStreams.js';
import { rateLimitSubject } from '../policy/rateLimitPolicy.js';
import type { ModernScope } from './modernScope.js';

/** Opens a listen; its outcome settles when the stream ends. */
export function openListen(
  streams: ListenStreams,
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
  const id = request.id;
  const agreed: JsonObject = {};
  if (filter['toolsListChanged'] === true) agreed['toolsListChanged'] = true;
  const meta = { [META.subscriptionId]: id };
  const done = new Deferred<JsonObject>();
  const client = rateLimitSubject(scope.identityOf(context), scope.clientAddressOf(context));
  const remove = streams.add(
    {
      toolsListChanged: agreed['toolsListChanged'] === true,
      toolsChanged: () => scope.sendNotification(ToolListChanged.method, { _meta: meta }, id),
      end: () => done.resolve(scope.profile.complete({ _meta: { ...meta } })),
    },
    client,
  );
  // Acknowledged once it is counted (a listen over the cap is refused, never acknowledged).
  scope.sendNotification(
    SubscriptionsAcknowledged.method,
    { _meta: meta, notifications: agreed },
    id,
  );
  context.cancellation.onCancel(() => {
    remove();
    done.reject(new LocalError('aborted', 'The client ended the subscription'));
  });
  return done;
}

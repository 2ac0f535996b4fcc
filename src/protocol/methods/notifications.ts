/**
 * @module Descriptors of the notifications that are not tied to one feature (cancellation,
 * progress, log messages, the other list_changed kinds) and of `subscriptions/listen`, the 2026
 * stream that carries list_changed and task notifications.
 */
import {
  CANCELLED,
  LOG_MESSAGE,
  PROGRESS,
  PROMPTS_LIST_CHANGED,
  RESOURCES_LIST_CHANGED,
} from '../../jsonrpc/methods.js';
import type { JsonObject, RequestId } from '../../jsonrpc/types.js';
import type { LoggingMessageParams, ProgressParams } from '../types.js';
import {
  BOTH_ERAS,
  ERA_2026,
  notification,
  request,
  type RequestMethod,
  type NotificationMethod,
} from './descriptor.js';

/** `notifications/cancelled` (the connection consumes it; see jsonrpc/methods.ts). */
export const Cancelled: NotificationMethod<{ requestId?: RequestId; reason?: string }> =
  notification(CANCELLED, {
    direction: 'both',
    since: '2024-11-05',
    eras: BOTH_ERAS,
  });

/** `notifications/progress` (the connection consumes it; see jsonrpc/methods.ts). */
export const ProgressNotification: NotificationMethod<ProgressParams> = notification(PROGRESS, {
  direction: 'both',
  since: '2024-11-05',
  eras: BOTH_ERAS,
});

/** `notifications/message`: a log message (per request level in 2026-07-28). */
export const LoggingMessage: NotificationMethod<LoggingMessageParams> = notification(LOG_MESSAGE, {
  direction: 'server-to-client',
  since: '2024-11-05',
  eras: BOTH_ERAS,
  capability: { of: 'server', key: 'logging' },
});

/** `notifications/prompts/list_changed` (toolwire serves no prompts; named for the HTTP stream). */
export const PromptListChanged: NotificationMethod<JsonObject> = notification(
  PROMPTS_LIST_CHANGED,
  {
    direction: 'server-to-client',
    since: '2024-11-05',
    eras: BOTH_ERAS,
    capability: { of: 'server', key: 'prompts' },
  },
);

/** `notifications/resources/list_changed` (toolwire serves no resources; named likewise). */
export const ResourceListChanged: NotificationMethod<JsonObject> = notification(
  RESOURCES_LIST_CHANGED,
  {
    direction: 'server-to-client',
    since: '2024-11-05',
    eras: BOTH_ERAS,
    capability: { of: 'server', key: 'resources' },
  },
);

/** The filter of `subscriptions/listen`. */
export interface ListenParams {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** The tasks extension. */
  taskIds?: string[];
  _meta?: Record<string, unknown>;
}

/** `subscriptions/listen` (2026-07-28): a stream of the notifications the client asked for. */
export const Listen: RequestMethod<ListenParams, JsonObject> = request('subscriptions/listen', {
  direction: 'client-to-server',
  since: '2026-07-28',
  eras: ERA_2026,
});

/** `notifications/subscriptions/acknowledged`: the first message of a listen stream (2026). */
export const SubscriptionsAcknowledged: NotificationMethod<JsonObject> = notification(
  'notifications/subscriptions/acknowledged',
  { direction: 'server-to-client', since: '2026-07-28', eras: ERA_2026 },
);

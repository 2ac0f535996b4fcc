/**
 * @module The notifications a server sends the client, through one table keyed by the methods'
 * descriptors: tools changed (refresh the cache), log messages, task statuses (both generations), a listen stream's
 * acknowledgement. Any other
 * notification is ignored (the connection already consumed progress and cancellation).
 */
import type { JsonObject, JsonRpcNotification } from '../jsonrpc/types.js';
import {
  LoggingMessage,
  SubscriptionsAcknowledged,
  TaskStatus,
  TasksNotification,
  ToolListChanged,
} from '../protocol/methods.js';
import { LOGGING_LEVELS, type LoggingLevel, type LoggingMessageParams } from '../protocol/types.js';
import { parseTask } from './tasks/taskCalls.js';
import { extensionTaskState, type TaskState } from './tasks/taskState.js';

/** What the client does with the notifications it understands. */
export interface NotificationHost {
  /** The server's tools changed. */
  toolsChanged(): void;
  /** A log message of a known level. */
  log(message: LoggingMessageParams): void;
  /** A well-formed task status (of either generation). */
  taskStatus(task: TaskState): void;
  /** The server acknowledged a `subscriptions/listen` stream (2026-07-28). */
  acknowledged(params: JsonObject | undefined): void;
}

type Receiver = (host: NotificationHost, params: JsonObject | undefined) => void;

function receiveLog(host: NotificationHost, params: JsonObject | undefined): void {
  if (params && LOGGING_LEVELS.includes(params['level'] as LoggingLevel))
    host.log(params as unknown as LoggingMessageParams);
}

/** A task status notification read by `parse` (a malformed one is dropped: polls still tell). */
function taskReceiver(parse: (params: unknown) => TaskState): Receiver {
  return (host, params) => {
    let task: TaskState;
    try {
      task = parse(params);
    } catch {
      return;
    }
    host.taskStatus(task);
  };
}

const RECEIVERS: ReadonlyMap<string, Receiver> = new Map<string, Receiver>([
  [ToolListChanged.method, (host) => host.toolsChanged()],
  [LoggingMessage.method, receiveLog],
  [TaskStatus.method, taskReceiver(parseTask)],
  [TasksNotification.method, taskReceiver(extensionTaskState)],
  [SubscriptionsAcknowledged.method, (host, params) => host.acknowledged(params)],
]);

/** Hands one notification to the host, when the client understands it. */
export function receiveNotification(
  host: NotificationHost,
  notification: JsonRpcNotification,
): void {
  RECEIVERS.get(notification.method)?.(host, notification.params);
}

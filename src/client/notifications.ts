/**
 * @module The notifications a server sends the client, through one table keyed by the methods'
 * descriptors: tools changed (refresh the cache), log messages, task statuses, a listen stream's
 * acknowledgement. Any other
 * notification is ignored (the connection already consumed progress and cancellation).
 */
import type { JsonObject, JsonRpcNotification } from '../jsonrpc/types.js';
import {
  LoggingMessage,
  SubscriptionsAcknowledged,
  TaskStatus,
  ToolListChanged,
} from '../protocol/methods.js';
import { LOGGING_LEVELS, type LoggingLevel, type LoggingMessageParams } from '../protocol/types.js';
import type { Task } from '../tasks/eras/rev2025/taskWire.js';
import { parseTask } from './tasks/taskCalls.js';

/** What the client does with the notifications it understands. */
export interface NotificationHost {
  /** The server's tools changed. */
  toolsChanged(): void;
  /** A log message of a known level. */
  log(message: LoggingMessageParams): void;
  /** A well-formed task status. */
  taskStatus(task: Task): void;
  /** The server acknowledged a `subscriptions/listen` stream (2026-07-28). */
  acknowledged(params: JsonObject | undefined): void;
}

type Receiver = (host: NotificationHost, params: JsonObject | undefined) => void;

function receiveLog(host: NotificationHost, params: JsonObject | undefined): void {
  if (params && LOGGING_LEVELS.includes(params['level'] as LoggingLevel))
    host.log(params as unknown as LoggingMessageParams);
}

function receiveTaskStatus(host: NotificationHost, params: JsonObject | undefined): void {
  let task: Task;
  try {
    task = parseTask(params);
  } catch {
    return; // malformed: polling still reports the task
  }
  host.taskStatus(task);
}

const RECEIVERS: ReadonlyMap<string, Receiver> = new Map<string, Receiver>([
  [ToolListChanged.method, (host) => host.toolsChanged()],
  [LoggingMessage.method, receiveLog],
  [TaskStatus.method, receiveTaskStatus],
  [SubscriptionsAcknowledged.method, (host, params) => host.acknowledged(params)],
]);

/** Hands one notification to the host, when the client understands it. */
export function receiveNotification(
  host: NotificationHost,
  notification: JsonRpcNotification,
): void {
  RECEIVERS.get(notification.method)?.(host, notification.params);
}

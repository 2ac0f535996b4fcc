/**
 * @module What the client's API hands back about a task, whichever generation it is: the
 * 2025-11-25 `Task` as it is, and a task of the tasks extension (2026-07-28) read into the same
 * shape (`ttlMs` as `ttl`, `pollIntervalMs` as `pollInterval`) with what the extension's
 * `DetailedTask` adds by status: the outstanding requests for input, the result, the error. So
 * `ontaskstatus`, `onTaskStatus`, `getTask` and the rest mean one thing in both eras.
 */
import { LocalError } from '../../jsonrpc/errors.js';
import { isPlainObject } from '../../jsonrpc/guards.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import type { Task } from '../../tasks/eras/rev2025/taskWire.js';
import { isTaskStatus } from '../../tasks/taskStatus.js';

/** A task as the client reports it; the optional fields come from the tasks extension only. */
export interface TaskState extends Task {
  /** `input_required` (extension): the requests waiting for an answer, by key (`updateTask`). */
  inputRequests?: Record<string, JsonObject>;
  /** `completed` (extension): the tool's result, as the server sent it. */
  result?: JsonObject;
  /** `failed` (extension): the JSON-RPC error the task failed with. */
  error?: { code: number; message: string; data?: unknown };
}

/**
 * Reads an extension task (`CreateTaskResult`, `tasks/get`'s `DetailedTask`, the params of
 * `notifications/tasks`); an `invalid-response` LocalError when it is not one.
 */
export function extensionTaskState(value: unknown): TaskState {
  if (
    !isPlainObject(value) ||
    typeof value['taskId'] !== 'string' ||
    value['taskId'] === '' ||
    !isTaskStatus(value['status']) ||
    typeof value['createdAt'] !== 'string'
  )
    throw new LocalError('invalid-response', 'The server sent a malformed task');
  const ttl = value['ttlMs'];
  const task: TaskState = {
    taskId: value['taskId'],
    status: value['status'],
    createdAt: value['createdAt'],
    // Optional in the extension's Task: a task never updated was last updated when created.
    lastUpdatedAt:
      typeof value['lastUpdatedAt'] === 'string' ? value['lastUpdatedAt'] : value['createdAt'],
    ttl: typeof ttl === 'number' ? ttl : null,
  };
  if (typeof value['statusMessage'] === 'string') task.statusMessage = value['statusMessage'];
  if (typeof value['pollIntervalMs'] === 'number') task.pollInterval = value['pollIntervalMs'];
  const { inputRequests, result, error } = value;
  if (task.status === 'input_required' && isPlainObject(inputRequests))
    task.inputRequests = inputRequests as Record<string, JsonObject>;
  if (task.status === 'completed' && isPlainObject(result)) {
    // `resultType` is the revision's envelope, not part of the tool's result.
    const { resultType: _envelope, ...plain } = result;
    task.result = plain;
  }
  if (
    task.status === 'failed' &&
    isPlainObject(error) &&
    typeof error['code'] === 'number' &&
    typeof error['message'] === 'string'
  )
    task.error = error as TaskState['error'] & object;
  return task;
}

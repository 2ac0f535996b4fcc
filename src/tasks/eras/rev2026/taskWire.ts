/**
 * @module The wire view of a task in the tasks extension of revision 2026-07-28
 * (`io.modelcontextprotocol/tasks`): the `Task` fields (`ttlMs` and `pollIntervalMs` where
 * 2025-11-25 said `ttl` and `pollInterval`), the `DetailedTask` that `tasks/get` answers and
 * `notifications/tasks` carries (with `inputRequests`, `result` or `error` by status), and the
 * `CreateTaskResult` (`resultType: "task"`) a `tools/call` is answered with when the server makes
 * it a task. A stored record (tasks/taskRecord.ts) is shown through these.
 */
import type { JsonObject } from '../../../jsonrpc/types.js';
import type { TaskRecord } from '../../taskRecord.js';
import type { TaskStatus } from '../../taskStatus.js';

/** The extension's identifier, in capabilities (`extensions`) and errors (-32021). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** A task as the extension's wire carries it (`Task`). */
export interface ExtensionTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  /** Milliseconds from creation the task is kept; null for unlimited. */
  ttlMs: number | null;
  pollIntervalMs?: number;
}

/** The `Task` fields of a record. */
export function taskOf(record: TaskRecord): ExtensionTask {
  const task: ExtensionTask = {
    taskId: record.taskId,
    status: record.status,
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttlMs: record.ttl,
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  if (record.pollInterval !== undefined) task.pollIntervalMs = record.pollInterval;
  return task;
}

/**
 * The `DetailedTask` of a record (`tasks/get`, `notifications/tasks`): `input_required` with
 * every outstanding request, `completed` with the result, `failed` with the JSON-RPC error. A
 * record without the payload its status needs (a task failed by a lost lease has its error; one
 * whose outcome could not be read has none) gets a -32603 error, so `failed` always carries one.
 */
export function detailedTaskOf(record: TaskRecord): JsonObject {
  const task = taskOf(record) as unknown as JsonObject;
  const outcome = record.outcome;
  switch (record.status) {
    case 'input_required':
      task['inputRequests'] = record.inputRequests ?? {};
      break;
    case 'completed':
      task['result'] = outcome?.kind === 'result' ? outcome.result : {};
      break;
    case 'failed':
      task['error'] =
        outcome?.kind === 'error'
          ? outcome.error
          : {
              code: -32603,
              message: record.statusMessage ?? 'The task failed',
            };
      break;
    case 'working':
    case 'cancelled':
      break;
  }
  return task;
}

/** The answer to a `tools/call` the server made a task (`CreateTaskResult`). */
export function createTaskResult(record: TaskRecord): JsonObject {
  return { resultType: 'task', ...(taskOf(record) as unknown as JsonObject) };
}

/**
 * @module The 2025-11-25 wire view of a task (the experimental tasks utility): the `Task` object
 * `tasks/get`, `tasks/list`, `tasks/cancel` and `notifications/tasks/status` carry, the
 * `CreateTaskResult` a task-augmented request is answered with, and the `_meta` keys that tie
 * messages to a task. A stored record (tasks/taskRecord.ts) is shown through {@link taskOf}.
 */
import type { JsonObject } from '../../../jsonrpc/types.js';
import type { TaskRecord } from '../../taskRecord.js';
import type { TaskStatus } from '../../taskStatus.js';

/** A task as the wire carries it (`Task` in the 2025-11-25 schema). */
export interface Task {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  /** Milliseconds from creation the task is kept; null for unlimited. */
  ttl: number | null;
  pollInterval?: number;
}

/** The wire view of a record. */
export function taskOf(record: TaskRecord): Task {
  const task: Task = {
    taskId: record.taskId,
    status: record.status,
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttl: record.ttl,
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  if (record.pollInterval !== undefined) task.pollInterval = record.pollInterval;
  return task;
}

/** The `_meta` key that ties a message to a task. */
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** The `_meta` key of a CreateTaskResult's text for the model while the task runs. */
export const MODEL_IMMEDIATE_RESPONSE = 'io.modelcontextprotocol/model-immediate-response';

/** The `_meta` of a message about a task (`io.modelcontextprotocol/related-task`). */
export function relatedTaskMeta(taskId: string): JsonObject {
  return { [RELATED_TASK]: { taskId } };
}

/**
 * The answer to a task-augmented request (`CreateTaskResult`): the task just created and, when
 * the tool gives one, the text for the model while the task runs.
 */
export function createTaskResult(
  record: TaskRecord,
  immediateResponse: string | undefined,
): JsonObject {
  const result: JsonObject = { task: taskOf(record) };
  if (immediateResponse !== undefined)
    result['_meta'] = { [MODEL_IMMEDIATE_RESPONSE]: immediateResponse };
  return result;
}

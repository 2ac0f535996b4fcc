/**
 * @module The task methods a client sends on its own (`tasks/get`, `tasks/list`, `tasks/result`,
 * `tasks/cancel`), each reading its answer; the calls `callTool` runs as tasks are in taskCalls.ts.
 */
import type { Connection } from '../../jsonrpc/connection.js';
import { LocalError } from '../../jsonrpc/errors.js';
import { CancelTask, GetTask, GetTaskResult, ListTasks } from '../../protocol/methods.js';
import { parseCallToolResult } from '../../protocol/params.js';
import type { CallToolResult } from '../../protocol/types.js';
import type { RevisionFeatures } from '../../protocol/versions.js';
import type { Task } from '../../tasks/eras/rev2025/taskWire.js';
import { parseTask } from './taskCalls.js';

/** The status of a task (`tasks/get`). */
export async function getTask(
  connection: Connection,
  taskId: string,
  options: { signal?: AbortSignal },
): Promise<Task> {
  return parseTask(await connection.request(GetTask.method, { taskId }, options));
}

/** One page of this caller's tasks (`tasks/list`). */
export async function listTasks(
  connection: Connection,
  options: { cursor?: string; signal?: AbortSignal },
): Promise<{ tasks: Task[]; nextCursor?: string }> {
  const params = options.cursor === undefined ? {} : { cursor: options.cursor };
  const raw = await connection.request(
    ListTasks.method,
    params,
    options.signal ? { signal: options.signal } : {},
  );
  if (!Array.isArray(raw['tasks']))
    throw new LocalError('invalid-response', `${ListTasks.method} result has no "tasks" array`);
  const page: { tasks: Task[]; nextCursor?: string } = { tasks: raw['tasks'].map(parseTask) };
  if (typeof raw['nextCursor'] === 'string') page.nextCursor = raw['nextCursor'];
  return page;
}

/** The result of a task, waiting until it ends (`tasks/result`), read as the revision allows. */
export async function taskResult(
  on: { connection: Connection; features: RevisionFeatures },
  taskId: string,
  options: { signal?: AbortSignal; timeoutMs?: number },
): Promise<CallToolResult> {
  return parseCallToolResult(
    await on.connection.request(GetTaskResult.method, { taskId }, options),
    on.features,
  );
}

/** Cancels a task (`tasks/cancel`); -32602 when it already ended. */
export async function cancelTask(connection: Connection, taskId: string): Promise<Task> {
  return parseTask(await connection.request(CancelTask.method, { taskId }));
}

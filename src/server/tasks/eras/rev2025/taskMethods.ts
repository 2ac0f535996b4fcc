/**
 * @module The 2025-11-25 task methods: `tasks/get`, `tasks/result`, `tasks/list` and
 * `tasks/cancel`, each answering in the 2025 wire shape (a `Task` object; `tasks/result` the
 * stored result itself). Lookups go through the shared, requestor-bound checks (taskLookup.ts).
 */
import type { IncomingRequestContext } from '../../../../jsonrpc/connection.js';
import { ErrorCode, RpcError } from '../../../../jsonrpc/errors.js';
import type { JsonObject } from '../../../../jsonrpc/types.js';
import {
  CancelTask,
  GetTask,
  GetTaskResult,
  ListTasks,
  type RequestMethod,
} from '../../../../protocol/methods.js';
import { parseCursor } from '../../../../protocol/params.js';
import { taskResultOf } from '../../../../tasks/eras/rev2025/taskOutcome.js';
import { taskOf } from '../../../../tasks/eras/rev2025/taskWire.js';
import type { TaskRecord } from '../../../../tasks/taskRecord.js';
import { isTerminal } from '../../../../tasks/taskStatus.js';
import { lookupOf, notFound, paced } from '../../taskLookup.js';
import type { TaskRuntime } from '../../taskRuntime.js';
import { waitTerminal } from '../../waitTerminal.js';

/** One task method call, bound to its requestor. */
export interface TaskMethodCall {
  readonly params: JsonObject | undefined;
  readonly owner: string;
  readonly sessionId: string;
  readonly incoming: IncomingRequestContext;
}

/** How one task method is served. */
export type TaskMethod = (runtime: TaskRuntime, call: TaskMethodCall) => Promise<JsonObject>;

/** A record if it is a 2025-11-25 task: the extension's tasks are not visible to these methods. */
function ofThisGeneration(record: TaskRecord | undefined): TaskRecord | undefined {
  return record?.generation === undefined ? record : undefined;
}

/** `tasks/get` */
async function getTask(runtime: TaskRuntime, call: TaskMethodCall): Promise<JsonObject> {
  const { owner } = call;
  const taskId = lookupOf(runtime, call);
  const turn = paced(runtime, call, taskId);
  if (turn) await turn; // no await at all when the poll may go at once
  const record = ofThisGeneration(await runtime.store.get({ taskId, owner }));
  if (!record) throw await notFound(runtime, owner, taskId);
  return taskOf(record) as unknown as JsonObject;
}

/** `tasks/list` */
async function listTasks(runtime: TaskRuntime, call: TaskMethodCall): Promise<JsonObject> {
  const cursor = parseCursor(call.params);
  let page;
  try {
    page = await runtime.store.list({
      owner: call.owner,
      limit: runtime.pageSize,
      ...(cursor !== undefined ? { cursor } : {}),
    });
  } catch (error) {
    if (error instanceof RangeError) throw new RpcError(ErrorCode.InvalidParams, 'Invalid cursor');
    throw error;
  }
  return {
    // A page may come out shorter than the page size: the extension's tasks are not listed.
    tasks: page.tasks.filter((task) => task.generation === undefined).map(taskOf),
    ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}),
  };
}

/** `tasks/cancel` */
async function cancelTask(runtime: TaskRuntime, call: TaskMethodCall): Promise<JsonObject> {
  const { owner } = call;
  const taskId = lookupOf(runtime, call);
  // The extension's tasks are not this generation's to cancel (they are "unknown" here).
  if (!ofThisGeneration(await runtime.store.get({ taskId, owner })))
    throw await notFound(runtime, owner, taskId);
  const result = await runtime.store.transition({
    taskId,
    owner,
    to: 'cancelled',
    statusMessage: 'The task was cancelled by request.',
  });
  if (!result.ok && result.reason === 'not-found') throw await notFound(runtime, owner, taskId);
  if (!result.ok)
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Task ${taskId} is already ${result.task.status} and cannot be cancelled`,
    );
  runtime.abortLocal(taskId);
  return taskOf(result.task) as unknown as JsonObject;
}

/** `tasks/result` */
async function getTaskResult(runtime: TaskRuntime, call: TaskMethodCall): Promise<JsonObject> {
  const { store } = runtime;
  const { owner } = call;
  const taskId = lookupOf(runtime, call);
  const turn = paced(runtime, call, taskId);
  if (turn) await turn;
  let record = ofThisGeneration(await store.get({ taskId, owner }));
  if (!record) throw await notFound(runtime, owner, taskId);
  if (!isTerminal(record.status)) {
    // Messages the task sends meanwhile (elicitation...) go on this request's stream.
    const stop = runtime.await(taskId, call.sessionId, call.incoming.id);
    try {
      record = await waitTerminal(store, { taskId, owner }, call.incoming);
    } finally {
      stop();
    }
  }
  return taskResultOf(record);
}

/** The task methods a session serves, each with its descriptor. */
export const TASK_METHODS: ReadonlyArray<readonly [RequestMethod<unknown, unknown>, TaskMethod]> = [
  [GetTask, getTask],
  [GetTaskResult, getTaskResult],
  [ListTasks, listTasks],
  [CancelTask, cancelTask],
];

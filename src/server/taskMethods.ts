/**
 * @module The `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` methods. Every lookup
 * is bound to the caller: a task of someone else is "not found", exactly like a missing one.
 * Polls faster than the task's `pollInterval` are slowed down, and a requestor looking up many
 * unknown ids is refused for a while (see taskGuards.ts); the requestor's own tasks that expired
 * are told apart (as far as the store remembers them) and do not count.
 */
import type { IncomingRequestContext } from '../jsonrpc/connection.js';
import { ErrorCode, LocalError, RpcError } from '../jsonrpc/errors.js';
import type { JsonObject } from '../jsonrpc/types.js';
import {
  CancelTask,
  GetTask,
  GetTaskResult,
  ListTasks,
  type RequestMethod,
} from '../protocol/methods.js';
import { parseCursor, parseTaskIdParams } from '../protocol/params.js';
import type { TaskStore } from '../tasks/taskStore.js';
import { isTerminal, RELATED_TASK, taskOf, type TaskRecord } from '../tasks/taskTypes.js';
import { refusal } from './taskGuards.js';
import { resultOf, type TaskRuntime } from './taskRuntime.js';

function unknownTask(taskId: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, `Unknown task: ${taskId.slice(0, 100)}`);
}

/**
 * The task id a lookup names, once the requestor may look it up: not while it is refused for
 * asking after unknown ids.
 */
function lookupOf(runtime: TaskRuntime, call: { params: JsonObject | undefined; owner: string }) {
  runtime.lookups.check(call.owner);
  return parseTaskIdParams(call.params).taskId;
}

/**
 * Lets a poll of a task through, at once (undefined) or after its turn (a promise), or refuses it
 * with the rate-limit error (-31429, limit `taskPoll`) when it comes side by side with others
 * beyond the burst.
 */
function paced(
  runtime: TaskRuntime,
  call: { owner: string; incoming: IncomingRequestContext },
  taskId: string,
): Promise<void> | undefined {
  const decision = runtime.polls.take(call.owner, taskId);
  if (decision.kind === 'now') return undefined;
  if (decision.kind === 'refuse') {
    throw refusal(
      `Rate limit exceeded: task ${taskId.slice(0, 100)} is polled faster than its ` +
        `pollInterval (${runtime.pollIntervalMs} ms)`,
      decision.retryAfterMs,
      'taskPoll',
    );
  }
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, decision.waitMs);
    call.incoming.cancellation.onCancel((reason) => {
      clearTimeout(timer);
      reject(
        reason instanceof Error ? reason : new LocalError('aborted', 'The poll was cancelled'),
      );
    });
  });
}

/**
 * The answer to a lookup of an id the requestor has no live task by. One of its own tasks that
 * expired (the store remembers it) is "has expired", as the spec's example says, and is not
 * counted; anything else (an id that never was, someone else's task) is "unknown task" and counts
 * towards the requestor's unknown-id limit.
 */
async function notFound(runtime: TaskRuntime, owner: string, taskId: string): Promise<RpcError> {
  const store = runtime.store;
  if (store.expired) {
    try {
      if (await store.expired({ taskId, owner }))
        return new RpcError(ErrorCode.InvalidParams, `Task ${taskId} has expired`);
    } catch (error) {
      runtime.report(error, 'task store');
    }
  }
  runtime.lookups.unknown(owner);
  return unknownTask(taskId);
}

/** Waits until a task is terminal (or gone, or the request is cancelled); re-checks periodically. */
function waitTerminal(
  store: TaskStore,
  lookup: { taskId: string; owner: string },
  incoming: IncomingRequestContext,
): Promise<TaskRecord> {
  return new Promise<TaskRecord>((resolve, reject) => {
    let done = false;
    let unsubscribe: () => void = () => {};
    const finish = (outcome: () => void): void => {
      if (done) return;
      done = true;
      clearInterval(recheck);
      unsubscribe();
      outcome();
    };
    const check = (): void => {
      store.get(lookup).then(
        (record) => {
          if (!record)
            finish(() =>
              reject(
                new RpcError(
                  ErrorCode.InvalidParams,
                  `Task ${lookup.taskId} expired before it finished`,
                ),
              ),
            );
          else if (isTerminal(record.status)) finish(() => resolve(record));
        },
        (error: unknown) =>
          finish(() => reject(error instanceof Error ? error : new Error(String(error)))),
      );
    };
    // Events are the fast path; the periodic check catches expiry and anything missed.
    const recheck = setInterval(check, 2000);
    (recheck as { unref?: () => void }).unref?.();
    incoming.cancellation.onCancel((reason) =>
      finish(() =>
        reject(
          reason instanceof Error
            ? reason
            : new LocalError('aborted', 'tasks/result was cancelled'),
        ),
      ),
    );
    store
      .subscribe(lookup.taskId, (event) => {
        if (!isTerminal(event.status)) return;
        // A change made in this process carries the task: no need to read it back.
        const task = event.task;
        if (task?.owner === lookup.owner && isTerminal(task.status)) finish(() => resolve(task));
        else check();
      })
      .then(
        (stop) => {
          if (done) stop();
          else unsubscribe = stop;
          check(); // a change between the first read and the subscription is not missed
        },
        (error: unknown) =>
          finish(() => reject(error instanceof Error ? error : new Error(String(error)))),
      );
  });
}

/** One task method call, bound to its requestor. */
export interface TaskMethodCall {
  readonly params: JsonObject | undefined;
  readonly owner: string;
  readonly sessionId: string;
  readonly incoming: IncomingRequestContext;
}

/** How one task method is served. */
export type TaskMethod = (runtime: TaskRuntime, call: TaskMethodCall) => Promise<JsonObject>;

/** `tasks/get` */
async function getTask(runtime: TaskRuntime, call: TaskMethodCall): Promise<JsonObject> {
  const { owner } = call;
  const taskId = lookupOf(runtime, call);
  const turn = paced(runtime, call, taskId);
  if (turn) await turn; // no await at all when the poll may go at once
  const record = await runtime.store.get({ taskId, owner });
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
    tasks: page.tasks.map(taskOf),
    ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}),
  };
}

/** `tasks/cancel` */
async function cancelTask(runtime: TaskRuntime, call: TaskMethodCall): Promise<JsonObject> {
  const { owner } = call;
  const taskId = lookupOf(runtime, call);
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
  let record = await store.get({ taskId, owner });
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
  return resultOf(record, { [RELATED_TASK]: { taskId } });
}

/** The task methods a session serves, each with its descriptor. */
export const TASK_METHODS: ReadonlyArray<readonly [RequestMethod<unknown, unknown>, TaskMethod]> = [
  [GetTask, getTask],
  [GetTaskResult, getTaskResult],
  [ListTasks, listTasks],
  [CancelTask, cancelTask],
];

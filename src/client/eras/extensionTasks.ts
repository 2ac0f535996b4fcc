/**
 * @module The client's side of the tasks extension (2026-07-28, `io.modelcontextprotocol/tasks`):
 * its requests (`tasks/get`, `tasks/update`, `tasks/cancel`, and `subscriptions/listen` with
 * `taskIds` for `notifications/tasks`), and a task followed to its end, which is how `callTool`
 * still resolves with the tool's result when the server makes a call a task. A followed task is
 * polled at the server's `pollIntervalMs`, and heard at once through a listen for it; each status
 * is reported once and in order; its requests for input are answered through the application's
 * handlers with `tasks/update`, each key once; aborting sends `tasks/cancel`; a `failed` task
 * rejects with its JSON-RPC error, a `cancelled` one with a cancellation; a task that outlives its
 * `ttlMs` is given up.
 */
import type { Connection } from '../../jsonrpc/connection.js';
import { LocalError, RpcError } from '../../jsonrpc/errors.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import { CancelTask, GetTask, Listen, UpdateTask } from '../../protocol/methods.js';
import { checkResultType } from '../../protocol/eras/rev2026/resultType.js';
import { answerInputRequests } from '../input/inputRequests.js';
import type { ServerRequestHost } from '../input/serverRequests.js';
import { observeTask } from '../tasks/taskObserver.js';
import { isTerminal } from '../../tasks/taskStatus.js';
import { extensionTaskState, type TaskState } from '../tasks/taskState.js';

/** Requests for input one followed task may have answered: a server cannot ask without end. */
const MAX_TASK_INPUTS = 128;

/** How long past its `ttlMs` a task is still waited for (clocks differ). */
const TTL_GRACE_MS = 5_000;

/** What the extension's requests need of the session. */
export interface ExtensionLink {
  readonly connection: Connection;
  /** Params as sent: the session's `_meta`, declaring the extension. */
  withMeta(params: JsonObject): JsonObject;
  /** The application's handlers of requests for input. */
  readonly input: ServerRequestHost;
  /** Subscribes to the `notifications/tasks` of one task, from any listen; returns the stop. */
  watch(taskId: string, listener: (task: TaskState) => void): () => void;
}

const signalled = (signal: AbortSignal | undefined) => (signal ? { signal } : {});

/** `tasks/get`: the task's state. */
export async function getExtensionTask(
  link: ExtensionLink,
  taskId: string,
  signal?: AbortSignal,
): Promise<TaskState> {
  const raw = await link.connection.request(
    GetTask.method,
    link.withMeta({ taskId }),
    signalled(signal),
  );
  checkResultType(raw, GetTask.method);
  return extensionTaskState(raw);
}

/** `tasks/update`: answers to the task's requests for input, by key. */
export async function updateExtensionTask(
  link: ExtensionLink,
  request: { readonly taskId: string; readonly inputResponses: JsonObject },
  signal?: AbortSignal,
): Promise<void> {
  const { taskId, inputResponses } = request;
  await link.connection.request(
    UpdateTask.method,
    link.withMeta({ taskId, inputResponses }),
    signalled(signal),
  );
}

/**
 * `tasks/cancel`, then the task's state as the server tells it after (the extension acknowledges
 * a cancel with an empty result, and cancellation is cooperative: it may still be `working`).
 */
export async function cancelExtensionTask(
  link: ExtensionLink,
  taskId: string,
  signal?: AbortSignal,
): Promise<TaskState> {
  await link.connection.request(CancelTask.method, link.withMeta({ taskId }), signalled(signal));
  return getExtensionTask(link, taskId, signal);
}

/**
 * `subscriptions/listen` for `notifications/tasks` of `taskIds` (the server agrees to the
 * caller's own); the notifications reach the client's notification table, and so the watchers.
 * Resolves when the server ends the stream, rejects on a refusal; `signal` ends it.
 */
export async function listenToTasks(
  link: ExtensionLink,
  taskIds: readonly string[],
  signal: AbortSignal,
): Promise<void> {
  await link.connection.request(
    Listen.method,
    link.withMeta({ notifications: { taskIds: [...taskIds] } }),
    { signal, timeoutMs: Number.POSITIVE_INFINITY, maxTotalTimeoutMs: Number.POSITIVE_INFINITY },
  );
}

/** How a task is followed. */
export interface FollowOptions {
  readonly signal: AbortSignal | undefined;
  /** Each status once, in order, the terminal one included. */
  readonly ontaskstatus?: ((task: TaskState) => void) | undefined;
  /** Cancel the task when the follow gives up before it ends (a call abandoned). Default true. */
  readonly cancelOnAbort?: boolean;
}

/** The end of a task in its terminal state: the result, or the error it ended with. */
function outcomeOf(task: TaskState): JsonObject {
  switch (task.status) {
    case 'completed':
      if (task.result === undefined)
        throw new LocalError('invalid-response', `Task ${task.taskId} completed without a result`);
      return task.result;
    case 'failed':
      if (task.error) throw RpcError.fromWire(task.error);
      throw new LocalError('invalid-response', `Task ${task.taskId} failed without an error`);
    case 'cancelled':
      throw new LocalError('aborted', `Task ${task.taskId} was cancelled`);
    case 'working':
    case 'input_required':
      throw new LocalError('invalid-response', `Task ${task.taskId} has not ended`);
  }
}

/**
 * Watches a task of the extension from its state `first` until it ends, hearing it through a
 * listen of its own as well as by polling (the listen is best effort: a server that refuses it
 * is polled). `onState` sees each state before the next wait.
 */
export async function watchExtensionTask(
  first: TaskState,
  link: ExtensionLink,
  options: FollowOptions & { onState?: (task: TaskState) => Promise<void> },
): Promise<TaskState> {
  const { taskId } = first;
  const { signal } = options;
  const listening = new AbortController();
  const ended = signal ? AbortSignal.any([signal, listening.signal]) : listening.signal;
  if (!isTerminal(first.status)) void listenToTasks(link, [taskId], ended).catch(() => {});
  try {
    return await observeTask(first, {
      get: (s) => getExtensionTask(link, taskId, s),
      watch: (listener) => link.watch(taskId, listener),
      signal,
      report: options.ontaskstatus,
      ...(options.onState ? { onState: options.onState } : {}),
      ...(first.ttl !== null && Number.isFinite(Date.parse(first.createdAt))
        ? { deadline: Date.parse(first.createdAt) + first.ttl + TTL_GRACE_MS }
        : {}),
    });
  } finally {
    listening.abort();
  }
}

/**
 * Follows a task from its state `first` to its end, answering its requests for input through
 * the handlers; resolves with the tool's result.
 */
export async function followTask(
  first: TaskState,
  link: ExtensionLink,
  options: FollowOptions,
): Promise<JsonObject> {
  const { signal } = options;
  const answered = new Set<string>();
  let last: TaskState;
  try {
    last = await watchExtensionTask(first, link, {
      ...options,
      onState: (task) =>
        task.status === 'input_required'
          ? answer(task, link, { answered, signal })
          : Promise.resolve(),
    });
  } catch (error) {
    // Given up before the task ended (the call aborted, timed out, or the server misbehaved):
    // the task is cancelled too, since nobody will read its result (best effort; cooperative).
    if (options.cancelOnAbort !== false)
      void link.connection
        .request(CancelTask.method, link.withMeta({ taskId: first.taskId }), { timeoutMs: 10_000 })
        .catch(() => {});
    throw error;
  }
  return outcomeOf(last);
}

/** Answers the task's outstanding requests not answered yet (each key once), with tasks/update. */
async function answer(
  task: TaskState,
  link: ExtensionLink,
  keys: { readonly answered: Set<string>; readonly signal: AbortSignal | undefined },
): Promise<void> {
  const { answered, signal } = keys;
  const requests = task.inputRequests;
  if (requests === undefined) return;
  const fresh: JsonObject = {};
  for (const [key, request] of Object.entries(requests))
    if (!answered.has(key)) fresh[key] = request;
  const count = Object.keys(fresh).length;
  if (count === 0) return;
  if (answered.size + count > MAX_TASK_INPUTS)
    throw new LocalError(
      'invalid-response',
      `Task ${task.taskId} asked for more than ${MAX_TASK_INPUTS} inputs; this client stops answering`,
    );
  const inputResponses = await answerInputRequests(link.input, fresh, signal);
  if (inputResponses === undefined) return;
  for (const key of Object.keys(inputResponses)) answered.add(key);
  await updateExtensionTask(link, { taskId: task.taskId, inputResponses }, signal);
}

/** How long a caller who gave up waits for the answer of a call that may create a task. */
const CREATE_GRACE_MS = 5_000;

/**
 * The answer of a call that may be answered with a task (it declared the extension), sent
 * without the caller's signal: a caller who gives up while it is on its way must not orphan a
 * task the server creates meanwhile (over HTTP, closing the request's stream loses the answer,
 * and with it the task id). So on abort the answer is still awaited a little, a task in it is
 * cancelled (`tasks/cancel`, sent before this rejects, so a program that ends next still sends
 * it), and then the caller hears it gave up.
 */
export function creatingCall(
  answer: Promise<JsonObject>,
  signal: AbortSignal | undefined,
  cancel: (taskId: string) => Promise<unknown>,
): Promise<JsonObject> {
  if (!signal) return answer;
  return new Promise<JsonObject>((resolve, reject) => {
    let settled = false;
    const aborted = (): LocalError =>
      new LocalError('aborted', 'Request tools/call was aborted', { cause: signal.reason });
    const onAbort = (): void => {
      if (settled) return;
      settled = true;
      const grace = new Promise<undefined>((done) => setTimeout(done, CREATE_GRACE_MS, undefined));
      void Promise.race([answer.catch(() => undefined), grace]).then(async (late) => {
        const taskId = late?.['resultType'] === 'task' ? late['taskId'] : undefined;
        if (typeof taskId === 'string') {
          const sent = cancel(taskId).catch(() => {});
          // Given a moment to leave (it is tracked by whoever closes the connection next).
          await Promise.race([sent, new Promise((done) => setTimeout(done, 100))]);
        }
        reject(aborted());
      });
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    answer.then(
      (value) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

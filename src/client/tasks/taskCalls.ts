/**
 * @module Running a tool as a task from the client side: send the task-augmented call, then wait
 * on `tasks/result` (which also carries the server's requests while the task needs input) while
 * polling `tasks/get` at the server's `pollInterval` to report status (in order, each change once,
 * the terminal one included); cancel with `tasks/cancel`.
 */
import { sleep } from '../../jsonrpc/sleep.js';
import type { Connection } from '../../jsonrpc/connection.js';
import { LocalError, RpcError } from '../../jsonrpc/errors.js';
import { isPlainObject } from '../../jsonrpc/guards.js';
import type { Progress } from '../../jsonrpc/pendingRequests.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import { CallTool, CancelTask, GetTask, GetTaskResult } from '../../protocol/methods.js';
import { MODEL_IMMEDIATE_RESPONSE, type Task } from '../../tasks/eras/rev2025/taskWire.js';
import { isTaskStatus, isTerminal } from '../../tasks/taskStatus.js';

/** Checks a Task object from a server. */
export function parseTask(value: unknown): Task {
  if (
    !isPlainObject(value) ||
    typeof value['taskId'] !== 'string' ||
    !isTaskStatus(value['status']) ||
    typeof value['createdAt'] !== 'string' ||
    typeof value['lastUpdatedAt'] !== 'string' ||
    !(value['ttl'] === null || typeof value['ttl'] === 'number')
  ) {
    throw new LocalError('invalid-response', 'The server sent a malformed task');
  }
  return value as unknown as Task;
}

/** How a task-augmented call is run. */
export interface TaskCallOptions {
  signal?: AbortSignal;
  /** Requested TTL in ms (the server may lower it). */
  ttl?: number;
  /** Timeout of the creating request. */
  timeoutMs?: number;
  /** The longest the whole task may take here before it is cancelled. */
  maxTotalTimeoutMs: number;
  onprogress?: (progress: Progress) => void;
  /**
   * Each status change, once and in order (from creation, polling or notifications; never one
   * older than a status already reported, nothing after a terminal one), ending with the terminal
   * status when the task ends.
   */
  ontaskstatus?: (task: Task) => void;
  /** The CreateTaskResult's text for the model, if the server gave one. */
  onimmediateresponse?: (text: string) => void;
  meta?: Record<string, unknown>;
  /** Handed to the request interceptor with the task-augmented `tools/call` (RequestOptions.scope). */
  scope?: unknown;
  /** Subscribes to the server's `notifications/tasks/status` for one task; returns the stop. */
  watch?: (taskId: string, listener: (task: Task) => void) => () => void;
}

/** Reports task statuses in order, each change once (see {@link taskStatusReporter}). */
export interface TaskStatusReporter {
  /** Offers a status however it was learnt; it is reported only if it is news. */
  offer(task: Task): void;
  /** True once a terminal status was reported. */
  readonly ended: boolean;
}

/**
 * Reports each status once and never goes back in time, however it was learnt. Polling
 * (`tasks/get`) and `notifications/tasks/status` race: a poll answered just before the task
 * completed can arrive after the completion's notification. So a status is dropped when a
 * terminal one was already reported, when its `lastUpdatedAt` is older than the last reported
 * one, or when it repeats the last one (polls do). Two statuses with the same timestamp are taken
 * in arrival order (a server may change a task twice within its clock's resolution).
 */
export function taskStatusReporter(report: ((task: Task) => void) | undefined): TaskStatusReporter {
  let last: Task | undefined;
  let lastTime = Number.NaN;
  return {
    offer(task) {
      const time = Date.parse(task.lastUpdatedAt);
      if (last) {
        if (isTerminal(last.status)) return;
        if (time < lastTime) return; // NaN (an unreadable timestamp) compares false: arrival order
        if (task.status === last.status && task.statusMessage === last.statusMessage) return;
      }
      last = task;
      lastTime = time;
      report?.(task);
    },
    get ended() {
      return last !== undefined && isTerminal(last.status);
    },
  };
}

/**
 * Sends `tools/call` as a task and resolves with the task as created, without waiting for it
 * (`McpClient.startTask`). A caller who gives up while the task is being created gets it
 * cancelled, as `callToolAsTask` does.
 */
export async function startToolTask(
  connection: Connection,
  call: { name: string; args: Record<string, unknown> },
  options: Pick<TaskCallOptions, 'signal' | 'ttl' | 'timeoutMs' | 'meta' | 'scope'>,
): Promise<Task> {
  const params: JsonObject = {
    name: call.name,
    arguments: call.args,
    task: options.ttl !== undefined ? { ttl: options.ttl } : {},
  };
  if (options.meta) params['_meta'] = { ...options.meta };
  const created = await createTask(connection, params, options);
  return parseTask(created['task']);
}

/** Runs `tools/call` as a task and resolves with the tool's result (what `tasks/result` returns). */
export async function callToolAsTask(
  connection: Connection,
  call: { name: string; args: Record<string, unknown> },
  options: TaskCallOptions,
): Promise<JsonObject> {
  const params: JsonObject = {
    name: call.name,
    arguments: call.args,
    task: options.ttl !== undefined ? { ttl: options.ttl } : {},
  };
  const meta: JsonObject = { ...options.meta };
  let stopProgress: () => void = () => {};
  if (options.onprogress) {
    // The token stays valid for the whole task, long after the creating request returned.
    const token = `tw-task-${crypto.randomUUID()}`;
    meta['progressToken'] = token;
    stopProgress = connection.listenProgress(token, options.onprogress);
  }
  if (Object.keys(meta).length > 0) params['_meta'] = meta;
  const done = new AbortController();
  const stop = options.signal ? AbortSignal.any([options.signal, done.signal]) : done.signal;
  try {
    const created = await createTask(connection, params, options);
    const task = parseTask(created['task']);
    const immediate = isPlainObject(created['_meta'])
      ? created['_meta'][MODEL_IMMEDIATE_RESPONSE]
      : undefined;
    if (typeof immediate === 'string') options.onimmediateresponse?.(immediate);
    const reporter = taskStatusReporter(options.ontaskstatus);
    const report = (t: Task): void => reporter.offer(t);
    report(task);
    const unwatch = options.watch?.(task.taskId, report) ?? (() => {});
    stop.addEventListener('abort', unwatch, { once: true });
    const cancelTask = (): void => {
      connection
        .request(CancelTask.method, { taskId: task.taskId }, { timeoutMs: 10_000 })
        .catch(() => {});
    };
    options.signal?.addEventListener('abort', cancelTask, { once: true });
    // A caller who gave up from a callback above (its first status) is heard too.
    if (options.signal?.aborted) cancelTask();
    void poll(connection, task, { signal: stop, report });
    try {
      const result = await connection.request(
        GetTaskResult.method,
        { taskId: task.taskId },
        {
          signal: stop,
          timeoutMs: options.maxTotalTimeoutMs,
          maxTotalTimeoutMs: options.maxTotalTimeoutMs,
        },
      );
      await reportEnd(connection, task.taskId, reporter);
      return result;
    } catch (error) {
      if (error instanceof LocalError && error.code === 'timeout') cancelTask();
      // A JSON-RPC error is the task's outcome (failed, cancelled): its status is final too.
      if (error instanceof RpcError) await reportEnd(connection, task.taskId, reporter);
      throw error;
    } finally {
      options.signal?.removeEventListener('abort', cancelTask);
    }
  } finally {
    done.abort();
    stopProgress();
  }
}

/** How long a caller who gave up waits for the task it asked for, to cancel it. */
const CREATE_GRACE_MS = 5_000;
/** The creating request's time limit when the caller sets none (the client's default). */
const DEFAULT_CREATE_TIMEOUT_MS = 60_000;

/**
 * Sends the task-augmented `tools/call`. The spec forbids `notifications/cancelled` for it
 * (`tasks/cancel` is the way), so a caller who gives up while it is on its way (aborts, or its
 * time runs out) does not cancel the request: it waits (a little) for the task the server
 * creates, cancels that, and then fails. Otherwise a task created just as the caller gave up
 * would run on, orphaned.
 */
function createTask(
  connection: Connection,
  params: JsonObject,
  options: Pick<TaskCallOptions, 'signal' | 'timeoutMs' | 'scope'>,
): Promise<JsonObject> {
  const signal = options.signal;
  const limit = options.timeoutMs ?? DEFAULT_CREATE_TIMEOUT_MS;
  const aborted = (): LocalError =>
    new LocalError('aborted', 'Request tools/call was aborted', { cause: signal?.reason });
  if (signal?.aborted) return Promise.reject(aborted());
  // Never cancelled by the connection; its own limit leaves room to hear of a late task.
  const creating = connection.request(CallTool.method, params, {
    cancellable: false,
    timeoutMs: limit + CREATE_GRACE_MS,
    ...(options.scope !== undefined ? { scope: options.scope } : {}),
  });
  return new Promise<JsonObject>((resolve, reject) => {
    let settled = false;
    const finish = (): void => {
      settled = true;
      clearTimeout(deadline);
      signal?.removeEventListener('abort', onAbort);
    };
    const giveUp = (error: LocalError): void => {
      if (settled) return;
      finish();
      // The task, if it comes within the grace, is cancelled before the caller hears.
      const grace = setTimeout(() => reject(error), CREATE_GRACE_MS);
      void creating.then(
        (created) => {
          clearTimeout(grace);
          const taskId = isPlainObject(created['task']) ? created['task']['taskId'] : undefined;
          if (typeof taskId === 'string')
            connection
              .request(CancelTask.method, { taskId }, { timeoutMs: 10_000 })
              .catch(() => {});
          reject(error);
        },
        () => {
          clearTimeout(grace);
          reject(error);
        },
      );
    };
    const onAbort = (): void => giveUp(aborted());
    const deadline = setTimeout(
      () =>
        giveUp(
          new LocalError('timeout', `Request tools/call timed out (no answer in ${limit} ms)`),
        ),
      limit,
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    creating.then(
      (created) => {
        if (settled) return; // given up: that path settles it
        finish();
        resolve(created);
      },
      (error: unknown) => {
        if (settled) return;
        finish();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * Reports the terminal status once the outcome is known, when neither a poll nor a notification
 * brought it yet. Over Streamable HTTP the status notification travels on the GET stream and the
 * `tasks/result` answer on its POST's own stream, so the answer can overtake it; one `tasks/get`
 * settles it. A failure here changes nothing: the outcome is already in hand.
 */
async function reportEnd(
  connection: Connection,
  taskId: string,
  reporter: TaskStatusReporter,
): Promise<void> {
  if (reporter.ended || connection.closed) return;
  try {
    reporter.offer(
      parseTask(await connection.request(GetTask.method, { taskId }, { timeoutMs: 5_000 })),
    );
  } catch {
    // The task may have expired or the connection dropped: the outcome stands without it.
  }
}

/** Polls `tasks/get` at the task's pollInterval until it is terminal, reporting each change. */
async function poll(
  connection: Connection,
  first: Task,
  options: { signal: AbortSignal; report: (task: Task) => void },
): Promise<void> {
  let interval = first.pollInterval ?? 1000;
  for (;;) {
    await sleep(Math.max(50, interval), options.signal);
    if (options.signal.aborted) return;
    let task: Task;
    try {
      task = parseTask(
        await connection.request(
          GetTask.method,
          { taskId: first.taskId },
          { signal: options.signal, timeoutMs: 30_000 },
        ),
      );
    } catch (error) {
      if (error instanceof RpcError || options.signal.aborted) return; // gone, or finished
      continue;
    }
    interval = task.pollInterval ?? interval;
    options.report(task);
    if (isTerminal(task.status)) return;
  }
}

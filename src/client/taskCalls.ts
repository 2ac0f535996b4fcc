/**
 * @module Running a tool as a task from the client side: send the task-augmented call, then wait
 * on `tasks/result` (which also carries the server's requests while the task needs input) while
 * polling `tasks/get` at the server's `pollInterval` to report status; cancel with `tasks/cancel`.
 */
import type { Connection } from '../jsonrpc/connection.js';
import { LocalError, RpcError } from '../jsonrpc/errors.js';
import { isPlainObject } from '../jsonrpc/guards.js';
import type { Progress } from '../jsonrpc/pendingRequests.js';
import type { JsonObject } from '../jsonrpc/types.js';
import {
  isTerminal,
  MODEL_IMMEDIATE_RESPONSE,
  type Task,
  type TaskStatus,
} from '../tasks/taskTypes.js';

const STATUSES: readonly TaskStatus[] = [
  'working',
  'input_required',
  'completed',
  'failed',
  'cancelled',
];

/** Checks a Task object from a server. */
export function parseTask(value: unknown): Task {
  if (
    !isPlainObject(value) ||
    typeof value['taskId'] !== 'string' ||
    !STATUSES.includes(value['status'] as TaskStatus) ||
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
  /** Every status the client learns of (creation, polling, notifications). */
  ontaskstatus?: (task: Task) => void;
  /** The CreateTaskResult's text for the model, if the server gave one. */
  onimmediateresponse?: (text: string) => void;
  meta?: Record<string, unknown>;
  /** Subscribes to the server's `notifications/tasks/status` for one task; returns the stop. */
  watch?: (taskId: string, listener: (task: Task) => void) => () => void;
}

/** Reports each status once, however it was learnt (creation, a poll, a notification). */
function statusReporter(report: ((task: Task) => void) | undefined): (task: Task) => void {
  let last: string | undefined;
  return (task) => {
    const key = `${task.status}|${task.statusMessage ?? ''}`;
    if (key === last) return;
    last = key;
    report?.(task);
  };
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

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
    const created = await connection.request('tools/call', params, {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
    const task = parseTask(created['task']);
    const immediate = isPlainObject(created['_meta'])
      ? created['_meta'][MODEL_IMMEDIATE_RESPONSE]
      : undefined;
    if (typeof immediate === 'string') options.onimmediateresponse?.(immediate);
    const report = statusReporter(options.ontaskstatus);
    report(task);
    const unwatch = options.watch?.(task.taskId, report) ?? (() => {});
    stop.addEventListener('abort', unwatch, { once: true });
    const cancelTask = (): void => {
      connection
        .request('tasks/cancel', { taskId: task.taskId }, { timeoutMs: 10_000 })
        .catch(() => {});
    };
    options.signal?.addEventListener('abort', cancelTask, { once: true });
    void poll(connection, task, { signal: stop, report });
    try {
      return await connection.request(
        'tasks/result',
        { taskId: task.taskId },
        {
          signal: stop,
          timeoutMs: options.maxTotalTimeoutMs,
          maxTotalTimeoutMs: options.maxTotalTimeoutMs,
        },
      );
    } catch (error) {
      if (error instanceof LocalError && error.code === 'timeout') cancelTask();
      throw error;
    } finally {
      options.signal?.removeEventListener('abort', cancelTask);
    }
  } finally {
    done.abort();
    stopProgress();
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
          'tasks/get',
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

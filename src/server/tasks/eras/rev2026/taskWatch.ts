/**
 * @module `notifications/tasks` on a `subscriptions/listen` stream (the tasks extension): a listen
 * that names `taskIds` is agreed to those of them that are the caller's own extension tasks (an
 * id of someone else's task is left out, as an unknown one is: nothing tells the two apart), and
 * then hears each task's whole `DetailedTask` whenever it changes, from any instance (the task
 * store tells), starting with its state when the listen opens. A task that has ended is told once
 * and no longer watched.
 */
import { ErrorCode, RpcError } from '../../../../jsonrpc/errors.js';
import type { JsonObject } from '../../../../jsonrpc/types.js';
import { detailedTaskOf } from '../../../../tasks/eras/rev2026/taskWire.js';
import type { TaskRecord } from '../../../../tasks/taskRecord.js';
import { isTerminal } from '../../../../tasks/taskStatus.js';
import type { TaskRuntime } from '../../taskRuntime.js';

/** Task ids one listen may name. */
export const MAX_WATCHED_TASKS = 100;

/** The `taskIds` of a listen filter, checked (-32602 when they are not a short list of strings). */
export function watchedIds(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (
    !Array.isArray(value) ||
    value.length > MAX_WATCHED_TASKS ||
    !value.every((id) => typeof id === 'string' && id.length <= 200)
  )
    throw new RpcError(
      ErrorCode.InvalidParams,
      `notifications.taskIds must be a list of at most ${MAX_WATCHED_TASKS} task ids`,
    );
  return [...new Set(value as string[])];
}

/** The watch of one listen's tasks. */
export interface TaskWatch {
  /** The ids agreed to: the caller's own extension tasks among those asked. */
  readonly agreed: string[];
  /** Sends the state of every agreed task once (after the acknowledgement). */
  start(): void;
  /** Stops watching. */
  stop(): void;
}

/**
 * Looks the tasks up for `owner` and subscribes to each; `send` gets a task's `DetailedTask` on
 * every change. Store failures are reported and leave that task out.
 */
export async function watchTasks(
  runtime: TaskRuntime,
  request: { readonly owner: string; readonly taskIds: readonly string[] },
  send: (task: JsonObject) => void,
): Promise<TaskWatch> {
  const { store } = runtime;
  const found: TaskRecord[] = [];
  const stops: Array<() => void> = [];
  let stopped = false;
  // Until the acknowledgement has gone, changes wait here (the latest per task): the listen's
  // first message is its acknowledgement.
  let pending: Map<string, TaskRecord> | undefined = new Map();
  // The latest state told of each task: a read that comes back late never tells an older one.
  const latest = new Map<string, string>();
  const told = (record: TaskRecord) => {
    if (stopped) return;
    const last = latest.get(record.taskId);
    if (last !== undefined && record.lastUpdatedAt < last) return;
    latest.set(record.taskId, record.lastUpdatedAt);
    if (pending) pending.set(record.taskId, record);
    else send(detailedTaskOf(record));
  };
  const mine = (record: TaskRecord | undefined): record is TaskRecord =>
    record?.generation === 'extension' && record.owner === request.owner;
  for (const taskId of request.taskIds) {
    try {
      let done = false;
      // Subscribed before the task is read: a change between the two is not missed.
      const unsubscribe = await store.subscribe(taskId, (event) => {
        if (done) return;
        const read = event.task
          ? Promise.resolve(event.task)
          : store.get({ taskId, owner: request.owner });
        void read.then(
          (current) => {
            // Someone else's task (or not a task of the extension) is never told.
            if (done || !mine(current)) return;
            if (isTerminal(current.status)) done = true;
            told(current);
          },
          (error: unknown) => runtime.report(error, `reading task ${taskId} for a listen`),
        );
      });
      const record = await store.get({ taskId, owner: request.owner });
      if (!mine(record)) {
        done = true;
        unsubscribe();
        continue;
      }
      found.push(record);
      stops.push(unsubscribe);
    } catch (error) {
      runtime.report(error, `watching task ${taskId}`);
    }
  }
  return {
    agreed: found.map((record) => record.taskId),
    start: () => {
      const changed = pending ?? new Map<string, TaskRecord>();
      pending = undefined;
      for (const record of found) {
        const state = changed.get(record.taskId) ?? record;
        latest.delete(record.taskId); // told now, whichever came first
        told(state);
      }
    },
    stop: () => {
      stopped = true;
      for (const stop of stops.splice(0)) stop();
    },
  };
}

/**
 * @module Watching one task until it ends, whichever generation it is: polled at the server's
 * `pollInterval`, and heard at once when a status notification arrives (a notification wakes the
 * wait between two polls); each status reported once and in order (taskStatusReporter), a poll
 * answer older than what a notification told never taking its place.
 */
import { LocalError } from '../../jsonrpc/errors.js';
import { isTerminal } from '../../tasks/taskStatus.js';
import { taskStatusReporter } from './taskCalls.js';
import type { TaskState } from './taskState.js';

/** The shortest and longest wait between two polls, whatever the server says. */
const MIN_POLL_MS = 20;
const MAX_POLL_MS = 30_000;

/** How one task is watched. */
export interface Observation {
  /** The task's state now (a poll). */
  readonly get: (signal: AbortSignal | undefined) => Promise<TaskState>;
  /** Subscribes to the task's status notifications; returns the stop. */
  readonly watch: (listener: (task: TaskState) => void) => () => void;
  readonly signal: AbortSignal | undefined;
  /** Each status once, in order, the terminal one included. */
  readonly report?: ((task: TaskState) => void) | undefined;
  /** Each state as it is learnt, before the next wait (a follower answers input here). */
  readonly onState?: (task: TaskState) => Promise<void>;
  /** Given up (a `timeout` LocalError) past this time, in ms since the epoch. */
  readonly deadline?: number;
}

function pollDelay(task: TaskState): number {
  const ms = task.pollInterval;
  return ms !== undefined && Number.isFinite(ms)
    ? Math.min(Math.max(ms, MIN_POLL_MS), MAX_POLL_MS)
    : 1000;
}

/** The later of two states of one task (by `lastUpdatedAt`; a tie or an unreadable one: `b`). */
function later(a: TaskState | undefined, b: TaskState): TaskState {
  return a !== undefined && Date.parse(a.lastUpdatedAt) > Date.parse(b.lastUpdatedAt) ? a : b;
}

/** Watches the task from its state `first` until it ends; resolves with its terminal state. */
export async function observeTask(first: TaskState, watching: Observation): Promise<TaskState> {
  const { signal } = watching;
  const reporter = taskStatusReporter(watching.report);
  let heard: TaskState | undefined;
  let wake: (() => void) | undefined;
  const unwatch = watching.watch((task) => {
    heard = later(heard, task);
    wake?.();
  });
  let task = first;
  try {
    for (;;) {
      reporter.offer(task);
      if (isTerminal(task.status)) return task;
      await watching.onState?.(task);
      if (watching.deadline !== undefined && Date.now() > watching.deadline)
        throw new LocalError('timeout', `Task ${task.taskId} outlived its ttl without ending`);
      await new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason as Error);
        const timer = setTimeout(() => done(), pollDelay(task));
        const stop = () => {
          clearTimeout(timer);
          wake = undefined;
          reject(signal?.reason as Error);
        };
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', stop);
          wake = undefined;
          resolve();
        };
        signal?.addEventListener('abort', stop, { once: true });
        wake = done;
        if (heard !== undefined) done();
      });
      if (heard !== undefined) {
        task = heard;
        heard = undefined;
      } else {
        const polled = await watching.get(signal);
        // A notification that came while the poll was on its way may be newer than its answer.
        task = later(heard, polled);
        heard = undefined;
      }
    }
  } finally {
    unwatch();
  }
}

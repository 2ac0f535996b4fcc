/**
 * @module The task settings of a server (`McpServer`'s `tasks` option): where tasks live, their
 * TTL and polling pace, and the limits that keep them in bounds. The same for every protocol
 * generation that runs tasks.
 */
import type { TaskStore } from '../../tasks/taskStore.js';

/** Task settings of a server. */
export interface TaskOptions {
  /** Where tasks live. Default: in memory. */
  store?: TaskStore;
  /** TTL when the client asks for none. Default 10 min. */
  defaultTtlMs?: number;
  /** The most TTL a client gets, whatever it asks. Default 1 hour. */
  maxTtlMs?: number;
  /** The polling interval suggested to clients. Default 1000 ms. */
  pollIntervalMs?: number;
  /** A runner's lease; renewed every third of it. Default 30 s. */
  leaseMs?: number;
  /** Tasks per `tasks/list` page. Default 100. */
  pageSize?: number;
  /** Send `notifications/tasks/status` on status changes. Default true. */
  statusNotifications?: boolean;
  /**
   * Unfinished (working or input_required) tasks one requestor may have at once; more are
   * refused with -32000. The requestor is the task's owner (see `ownerOf`, taskOwner.ts).
   * Counted by the store, so with Redis it holds across every instance. Default 100.
   */
  maxTasksPerRequestor?: number;
  /**
   * Task handlers running in this process at once (every requestor); more are refused with
   * -32000. Per instance: each instance protects its own resources. Default 10 000.
   */
  maxRunningTasks?: number;
  /**
   * Polls (`tasks/get`, `tasks/result`) of one task a requestor may send at once beyond one per
   * `pollIntervalMs`. A faster poll is answered late (at most one interval), one sent side by
   * side beyond that is refused with the rate-limit error (-31429, `data: { retryAfterMs, limit:
   * 'taskPoll' }`). Per instance. Default 10.
   */
  pollBurst?: number;
  /**
   * Lookups of unknown task ids a requestor may make per window (each answered -32602 "unknown
   * task"); at the limit its task requests naming an id are refused with the rate-limit error
   * (-31429, `data: { retryAfterMs, limit: 'unknownTasks' }`) for one window and the server's
   * `onerror` hears of it once. Its own expired tasks are not unknown (see `TaskStore.expired`).
   * Per instance. Default 100 per 60 s.
   */
  unknownTaskLookups?: { limit: number; windowMs: number };
}

/** A setting that must be a positive integer (or a positive number of ms). */
export function positiveSetting(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`tasks.${name} must be a positive integer (got ${String(value)})`);
  return value;
}

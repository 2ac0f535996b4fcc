/**
 * @module The storage contract of tasks. Every status change is atomic (a compare-and-set on the
 * current status, also between processes), terminal statuses are final, every task expires with
 * its TTL, tasks are visible only to their owner, and a runner's lease lets a dead process's
 * tasks be failed. One contract test suite runs against every implementation
 * (test/contract/taskStore.contract.ts).
 */
import type { JsonObject } from '../jsonrpc/types.js';
import type { TaskOutcome, TaskRecord } from './taskRecord.js';
import type { TaskStatus } from './taskStatus.js';

/** Options of {@link TaskStore.create}. */
export interface CreateTaskOptions {
  owner: string;
  method: string;
  /** Milliseconds to keep the task from creation; null keeps it until deleted. */
  ttl: number | null;
  pollInterval?: number;
  /** The instance that will run the task, and how long its lease lasts without a heartbeat. */
  runner?: string;
  leaseMs?: number;
  /**
   * Refuse the task (throw {@link TaskLimitError}) when the owner already has this many
   * unfinished tasks (working or input_required, not expired). Counted atomically with the
   * creation, across every process sharing the store. No limit when absent.
   */
  maxActivePerOwner?: number;
  /** `extension` for a task of the 2026 tasks extension (see `TaskRecord.generation`). */
  generation?: 'extension';
}

/**
 * How long the stores remember an expired task's id for its owner (see
 * {@link TaskStore.expired}), from the moment it expired: one hour.
 */
export const EXPIRED_IDS_KEPT_MS = 3_600_000;

/** Thrown by {@link TaskStore.create} when the owner is at its `maxActivePerOwner`. */
export class TaskLimitError extends Error {
  override readonly name = 'TaskLimitError';

  constructor(readonly limit: number) {
    super(`The owner already has ${limit} unfinished tasks`);
  }
}

/** A task as it is when created: working, with what the options say. */
export function newTaskRecord(
  taskId: string,
  createdAt: string,
  options: CreateTaskOptions,
): TaskRecord {
  const record: TaskRecord = {
    taskId,
    status: 'working',
    createdAt,
    lastUpdatedAt: createdAt,
    ttl: options.ttl,
    owner: options.owner,
    method: options.method,
  };
  if (options.pollInterval !== undefined) record.pollInterval = options.pollInterval;
  if (options.runner !== undefined) record.runner = options.runner;
  if (options.generation !== undefined) record.generation = options.generation;
  return record;
}

/** Options of {@link TaskStore.transition}. */
export interface TransitionOptions {
  taskId: string;
  /** When given, only the owner may change the task. */
  owner?: string;
  to: TaskStatus;
  statusMessage?: string;
  /** Stored with a terminal status. */
  outcome?: TaskOutcome;
}

/** The outcome of a transition: the task after it, or why it did not happen. */
export type TransitionResult =
  | { ok: true; task: TaskRecord }
  | { ok: false; reason: 'not-found' }
  | { ok: false; reason: 'invalid-transition'; task: TaskRecord };

/** A change to a task, as subscribers see it. */
export interface TaskEvent {
  taskId: string;
  status: TaskStatus;
  /**
   * The task after the change, when the store has it at hand (the change was made through this
   * store object): a listener need not read it back. Absent for changes made elsewhere.
   */
  task?: TaskRecord;
}

/** The outcome of {@link TaskStore.provideInput}. */
export type ProvideInputResult =
  | {
      ok: true;
      /** The keys answered now (outstanding ones); the others were ignored. */
      accepted: string[];
      task: TaskRecord;
    }
  | { ok: false; reason: 'not-found' };

/** A page of tasks. */
export interface TaskPage {
  tasks: TaskRecord[];
  nextCursor?: string;
}

/** Where tasks live. */
export interface TaskStore {
  /**
   * Creates a task in `working` with a cryptographically random id; throws
   * {@link TaskLimitError} when `maxActivePerOwner` is reached.
   */
  create(options: CreateTaskOptions): Promise<TaskRecord>;
  /** The task, if it exists, has not expired, and belongs to `owner`. */
  get(options: { taskId: string; owner: string }): Promise<TaskRecord | undefined>;
  /**
   * True when `owner` had a task by this id that has expired (its TTL passed), as far as the
   * store remembers: expired ids are kept for their owner for a while (toolwire's stores: an
   * hour after the expiry, a bounded number). False for a live task, another owner's task and an
   * id that never was. The server asks it for an id it did not find: the requestor's own expired
   * task is answered "has expired" and does not count as a lookup of an unknown id (an
   * enumeration attempt). Optional: without it, every id not found counts as unknown.
   */
  expired?(options: { taskId: string; owner: string }): Promise<boolean>;
  /**
   * The owner's tasks, newest first, a page at a time. Cursors are authenticated: one this store
   * did not issue for this owner (tampered, forged, another owner's) throws a RangeError.
   */
  list(options: { owner: string; cursor?: string; limit: number }): Promise<TaskPage>;
  /** Changes the status atomically if the state machine allows it from the current status. */
  transition(options: TransitionOptions): Promise<TransitionResult>;
  /**
   * Adds requests for input to a task (extension tasks; key -> the request as `inputRequests`
   * shows it) and moves it to `input_required` if it is `working`. `invalid-transition` when the
   * task has ended. Optional: a store without it runs no extension task that asks for input.
   */
  requestInput?(options: {
    taskId: string;
    requests: Record<string, JsonObject>;
  }): Promise<TransitionResult>;
  /**
   * Answers outstanding requests of the owner's task: each response whose key is outstanding is
   * kept for the runner and the request is no longer outstanding; other keys are ignored (never
   * issued, answered already, or the task ended). Once none is outstanding the task is `working`
   * again. Subscribers hear of it even when the status stays (a partial answer).
   */
  provideInput?(options: {
    taskId: string;
    owner: string;
    responses: Record<string, unknown>;
  }): Promise<ProvideInputResult>;
  /** Takes the responses given so far to `keys` (they are removed from the store). */
  takeInput?(options: {
    taskId: string;
    keys: readonly string[];
  }): Promise<Record<string, unknown>>;
  /** Extends the leases of a runner's tasks. */
  heartbeat(options: { runner: string; leaseMs: number }): Promise<void>;
  /** Fails every non-terminal task whose lease expired (its runner died); returns them. */
  failExpiredLeases(options: { statusMessage: string }): Promise<TaskRecord[]>;
  /** Calls `listener` on every status change of a task (from any process); returns an unsubscribe. */
  subscribe(taskId: string, listener: (event: TaskEvent) => void): Promise<() => void>;
  /** Releases connections and timers. */
  close(): Promise<void>;
}

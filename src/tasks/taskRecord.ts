/**
 * @module What a task store keeps of a task, whichever protocol generation created it or reads
 * it: owner, status, timestamps, TTL, poll interval, outcome and the runner's lease. Each
 * generation shows a record through its own wire view (tasks/eras/), which picks and renames
 * fields (2025-11-25 `ttl`, the 2026 extension `ttlMs`); the record names no wire shape.
 */
import type { JsonObject, JsonRpcErrorObject } from '../jsonrpc/types.js';
import type { TaskStatus } from './taskStatus.js';

/** What a finished task produced: the result of the underlying request, or its JSON-RPC error. */
export type TaskOutcome =
  { kind: 'result'; result: JsonObject } | { kind: 'error'; error: JsonRpcErrorObject };

/** A task as a store keeps it. */
export interface TaskRecord {
  /** Cryptographically random, chosen by the store. */
  taskId: string;
  status: TaskStatus;
  /** Why the task is in its status, for people (a failure's message, a cancel's reason). */
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  /** Milliseconds from creation the task is kept; null for unlimited. */
  ttl: number | null;
  /** Milliseconds between polls suggested to the requestor. */
  pollInterval?: number;
  /** The principal the task belongs to: only it may see or change the task. */
  owner: string;
  /** The request that created it, e.g. `tools/call`. */
  method: string;
  /** Set once the task is terminal (cancelled tasks may have none). */
  outcome?: TaskOutcome;
  /**
   * Which protocol generation's task it is: absent for a 2025-11-25 task (the tasks utility),
   * `extension` for one of the 2026 tasks extension. Each is visible only to its own generation's
   * methods (its statuses mean other things: an `isError` result fails one and completes the other).
   */
  generation?: 'extension';
  /**
   * The requests for input the task waits on (extension tasks), by key: what `tasks/get` shows
   * while it is `input_required`. A key is answered once (`TaskStore.provideInput`).
   */
  inputRequests?: Record<string, JsonObject>;
  /** The instance running it, and until when its lease holds (dead instances are detected). */
  runner?: string;
  leaseExpiresAt?: number;
}

/**
 * The terminal status a finished run gives its task, and the message that says why. Each
 * protocol generation decides it from the outcome (2025-11-25 fails a task whose tool result has
 * `isError: true`; the 2026 extension completes it): see tasks/eras/.
 */
export interface TaskSettlement {
  readonly to: 'completed' | 'failed';
  readonly statusMessage?: string;
}

/**
 * @module Tasks (MCP 2025-11-25, experimental): the wire shape of a task, the stored record behind
 * it, and the state machine every store enforces.
 */
import type { JsonObject, JsonRpcErrorObject } from '../jsonrpc/types.js';

/** A task's status. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The statuses a task never leaves. */
export const TERMINAL_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];

/** True for completed, failed and cancelled. */
export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** The transitions the spec allows: working ↔ input_required, either → a terminal status. */
export function canTransition(from: TaskStatus, to: TaskStatus): boolean {
  if (isTerminal(from)) return false;
  if (from === to) return false;
  return to !== 'working' || from === 'input_required';
}

/** A task as the wire carries it (`Task` in the schema). */
export interface Task {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  /** Milliseconds from creation the task is kept; null for unlimited. */
  ttl: number | null;
  pollInterval?: number;
}

/** What a finished task produced: the result of the underlying request, or its JSON-RPC error. */
export type TaskOutcome =
  { kind: 'result'; result: JsonObject } | { kind: 'error'; error: JsonRpcErrorObject };

/** A task as a store keeps it. */
export interface TaskRecord extends Task {
  /** The principal the task belongs to: only it may see or change the task. */
  owner: string;
  /** The request that created it, e.g. `tools/call`. */
  method: string;
  /** Set once the task is terminal (cancelled tasks may have none). */
  outcome?: TaskOutcome;
  /** The instance running it, and until when its lease holds (dead instances are detected). */
  runner?: string;
  leaseExpiresAt?: number;
}

/** The wire view of a record. */
export function taskOf(record: TaskRecord): Task {
  const task: Task = {
    taskId: record.taskId,
    status: record.status,
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttl: record.ttl,
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  if (record.pollInterval !== undefined) task.pollInterval = record.pollInterval;
  return task;
}

/** The `_meta` key that ties a message to a task. */
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** The `_meta` key of a CreateTaskResult's text for the model while the task runs. */
export const MODEL_IMMEDIATE_RESPONSE = 'io.modelcontextprotocol/model-immediate-response';

/**
 * @module The task state machine, the same for every protocol generation (the 2025-11-25 tasks
 * utility and the 2026 tasks extension share the five statuses and their transitions): what a
 * status is, which are final, and which changes a store lets through.
 */

/** A task's status. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** Every status, in the order of the state machine. */
export const TASK_STATUSES: readonly TaskStatus[] = [
  'working',
  'input_required',
  'completed',
  'failed',
  'cancelled',
];

/** True for one of the five statuses (a peer's value, read). */
export function isTaskStatus(value: unknown): value is TaskStatus {
  return TASK_STATUSES.includes(value as TaskStatus);
}

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

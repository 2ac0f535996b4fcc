/**
 * @module How the tasks extension reads a finished task's outcome: a result, even one with
 * `isError: true`, completes the task (the reverse of 2025-11-25, which failed it); only a
 * JSON-RPC error fails it, with the error's message as the `statusMessage`.
 */
import type { TaskOutcome, TaskSettlement } from '../../taskRecord.js';

/** The terminal status of a finished extension task, and why. */
export function settlementOf(outcome: TaskOutcome): TaskSettlement {
  if (outcome.kind === 'result') return { to: 'completed' };
  const message = outcome.error.message;
  return message === '' ? { to: 'failed' } : { to: 'failed', statusMessage: message.slice(0, 500) };
}

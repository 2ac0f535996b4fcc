/**
 * @module How the 2025-11-25 tasks utility reads a finished task's outcome: which terminal status
 * it gives the task (a tool result with `isError: true` fails it, where the 2026 extension calls
 * it completed), the `statusMessage` of a failure, and what `tasks/result` answers.
 */
import { ErrorCode, RpcError } from '../../../jsonrpc/errors.js';
import type { JsonObject } from '../../../jsonrpc/types.js';
import type { TaskOutcome, TaskRecord, TaskSettlement } from '../../taskRecord.js';
import { relatedTaskMeta } from './taskWire.js';

/**
 * 2025-11-25: a JSON-RPC error or an `isError` result fails the task; its `statusMessage` is the
 * error's message, or the first text of the result (a handler's error, or a result too large to
 * send), cut to 500 characters.
 */
export function settlementOf(outcome: TaskOutcome): TaskSettlement {
  const failed = outcome.kind === 'error' || outcome.result['isError'] === true;
  if (!failed) return { to: 'completed' };
  const statusMessage = failureMessage(outcome);
  return statusMessage === undefined ? { to: 'failed' } : { to: 'failed', statusMessage };
}

function failureMessage(outcome: TaskOutcome): string | undefined {
  let text: unknown;
  if (outcome.kind === 'error') text = outcome.error.message;
  else {
    const content = outcome.result['content'];
    const first = Array.isArray(content)
      ? (content[0] as { text?: unknown } | undefined)
      : undefined;
    text = first?.text;
  }
  return typeof text === 'string' && text !== '' ? text.slice(0, 500) : undefined;
}

/**
 * What `tasks/result` answers for a terminal task: the stored result, tagged with the task in
 * its `_meta`, or the stored JSON-RPC error thrown as an RpcError.
 */
export function taskResultOf(record: TaskRecord): JsonObject {
  const outcome = record.outcome;
  if (!outcome) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Task ${record.taskId} was ${record.status} and has no result`,
    );
  }
  if (outcome.kind === 'error') throw RpcError.fromWire(outcome.error);
  const meta = (outcome.result['_meta'] as JsonObject | undefined) ?? {};
  return { ...outcome.result, _meta: { ...meta, ...relatedTaskMeta(record.taskId) } };
}

/**
 * @module Looking up a requestor's task, the part every generation's task methods share: every
 * lookup is bound to the caller (someone else's task is "not found", exactly like a missing one),
 * polls faster than the task's `pollInterval` are slowed down, and a requestor looking up many
 * unknown ids is refused for a while (see taskGuards.ts); the requestor's own tasks that expired
 * are told apart (as far as the store remembers them) and do not count.
 */
import type { IncomingRequestContext } from '../../jsonrpc/connection.js';
import { ErrorCode, LocalError, RpcError } from '../../jsonrpc/errors.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import { parseTaskIdParams } from '../../protocol/params.js';
import { refusal } from './taskGuards.js';
import type { TaskRuntime } from './taskRuntime.js';

function unknownTask(taskId: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, `Unknown task: ${taskId.slice(0, 100)}`);
}

/**
 * The task id a lookup names, once the requestor may look it up: not while it is refused for
 * asking after unknown ids.
 */
export function lookupOf(
  runtime: TaskRuntime,
  call: { params: JsonObject | undefined; owner: string },
): string {
  runtime.lookups.check(call.owner);
  return parseTaskIdParams(call.params).taskId;
}

/**
 * Lets a poll of a task through, at once (undefined) or after its turn (a promise), or refuses it
 * with the rate-limit error (-31429, limit `taskPoll`) when it comes side by side with others
 * beyond the burst.
 */
export function paced(
  runtime: TaskRuntime,
  call: { owner: string; incoming: IncomingRequestContext },
  taskId: string,
): Promise<void> | undefined {
  const decision = runtime.polls.take(call.owner, taskId);
  if (decision.kind === 'now') return undefined;
  if (decision.kind === 'refuse') {
    throw refusal(
      `Rate limit exceeded: task ${taskId.slice(0, 100)} is polled faster than its ` +
        `pollInterval (${runtime.pollIntervalMs} ms)`,
      decision.retryAfterMs,
      'taskPoll',
    );
  }
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, decision.waitMs);
    call.incoming.cancellation.onCancel((reason) => {
      clearTimeout(timer);
      reject(
        reason instanceof Error ? reason : new LocalError('aborted', 'The poll was cancelled'),
      );
    });
  });
}

/**
 * The answer to a lookup of an id the requestor has no live task by. One of its own tasks that
 * expired (the store remembers it) is "has expired", as the spec's example says, and is not
 * counted; anything else (an id that never was, someone else's task) is "unknown task" and counts
 * towards the requestor's unknown-id limit.
 */
export async function notFound(
  runtime: TaskRuntime,
  owner: string,
  taskId: string,
): Promise<RpcError> {
  const store = runtime.store;
  if (store.expired) {
    try {
      if (await store.expired({ taskId, owner }))
        return new RpcError(ErrorCode.InvalidParams, `Task ${taskId} has expired`);
    } catch (error) {
      runtime.report(error, 'task store');
    }
  }
  runtime.lookups.unknown(owner);
  return unknownTask(taskId);
}

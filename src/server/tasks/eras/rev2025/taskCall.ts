/**
 * @module A task-augmented `tools/call` (2025-11-25): the tool-level negotiation (the call's
 * `params.task` against the tool's `execution.taskSupport`), and the start of the task, answered
 * at once with a `CreateTaskResult` while the tool runs on. Its status changes reach the session
 * as `notifications/tasks/status`, and its outcome settles it the 2025 way (an `isError` result
 * fails the task).
 */
import { ErrorCode, RpcError } from '../../../../jsonrpc/errors.js';
import type { JsonObject } from '../../../../jsonrpc/types.js';
import { CallTool, type CallToolParams } from '../../../../protocol/methods.js';
import { settlementOf } from '../../../../tasks/eras/rev2025/taskOutcome.js';
import { createTaskResult, taskOf } from '../../../../tasks/eras/rev2025/taskWire.js';
import type { ToolEntry } from '../../../registry/toolDefinition.js';
import { ownerOf } from '../../taskOwner.js';
import type { CallTaskStart, TaskGeneration } from '../../taskGeneration.js';
import type { TaskRuntime } from '../../taskRuntime.js';

/**
 * Whether the call runs as a task: it sent `params.task`. -32601 when the call and the tool
 * disagree (a task for a tool that forbids one, none for a tool that requires one).
 */
function runsAsTask(entry: ToolEntry, params: CallToolParams): boolean {
  const support = entry.definition.execution?.taskSupport ?? 'forbidden';
  if (params.task !== undefined && support === 'forbidden') {
    throw new RpcError(ErrorCode.MethodNotFound, `Tool "${entry.name}" cannot be run as a task`);
  }
  if (params.task === undefined && support === 'required') {
    throw new RpcError(
      ErrorCode.MethodNotFound,
      `Tool "${entry.name}" must be run as a task (send params.task)`,
    );
  }
  return params.task !== undefined;
}

/** Starts the task of a task-augmented call; answers its `CreateTaskResult`. */
async function startCallTask(runtime: TaskRuntime, call: CallTaskStart): Promise<JsonObject> {
  const { session } = call;
  const record = await runtime.start({
    owner: ownerOf(session.info.id, call.identity),
    method: CallTool.method,
    session: { id: session.info.id, taskChanged: (r) => session.sendTaskStatus(taskOf(r)) },
    ttl: call.ttl,
    // Input is pushed on the session, as for any 2025 call.
    run: (binding, cancellation) => call.run(binding, cancellation, undefined),
    settle: settlementOf,
  });
  return createTaskResult(record, call.immediateResponse);
}

/** The 2025-11-25 generation: the call asks for a task (`params.task`), the tool allows it. */
export const REV2025_TASKS: TaskGeneration = {
  taskOf: (entry, params) => (runsAsTask(entry, params) ? { ttl: params.task?.ttl } : undefined),
  start: startCallTask,
};

/**
 * @module A task-augmented `tools/call` (2025-11-25): the tool-level negotiation (the call's
 * `params.task` against the tool's `execution.taskSupport`), and the start of the task, answered
 * at once with a `CreateTaskResult` while the tool runs on. Its status changes reach the session
 * as `notifications/tasks/status`, and its outcome settles it the 2025 way (an `isError` result
 * fails the task).
 */
import type { Cancellation } from '../../../../jsonrpc/cancellation.js';
import { ErrorCode, RpcError } from '../../../../jsonrpc/errors.js';
import type { Identity } from '../../../../jsonrpc/transport.js';
import type { JsonObject } from '../../../../jsonrpc/types.js';
import { CallTool, type CallToolParams } from '../../../../protocol/methods.js';
import { settlementOf } from '../../../../tasks/eras/rev2025/taskOutcome.js';
import { createTaskResult, taskOf } from '../../../../tasks/eras/rev2025/taskWire.js';
import type { SessionPort, TaskBinding } from '../../../toolContext.js';
import type { ToolEntry } from '../../../registry/toolDefinition.js';
import { ownerOf } from '../../taskOwner.js';
import type { TaskRuntime } from '../../taskRuntime.js';

/**
 * Whether the call runs as a task: it sent `params.task`. -32601 when the call and the tool
 * disagree (a task for a tool that forbids one, none for a tool that requires one).
 */
export function runsAsTask(entry: ToolEntry, params: CallToolParams): boolean {
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

/** What a task-augmented call starts. */
export interface CallTaskStart {
  readonly session: SessionPort;
  readonly identity: Identity | undefined;
  /** The TTL the call asked for (`params.task.ttl`). */
  readonly ttl: number | undefined;
  /** The tool's text for the model while the task runs. */
  readonly immediateResponse: string | undefined;
  /** The tool's run: its CallToolResult. */
  readonly run: (binding: TaskBinding, cancellation: Cancellation) => Promise<JsonObject>;
}

/** Starts the task of a task-augmented call; answers its `CreateTaskResult`. */
export async function startCallTask(
  runtime: TaskRuntime,
  call: CallTaskStart,
): Promise<JsonObject> {
  const { session } = call;
  const record = await runtime.start({
    owner: ownerOf(session.info.id, call.identity),
    method: CallTool.method,
    session: { id: session.info.id, taskChanged: (r) => session.sendTaskStatus(taskOf(r)) },
    ttl: call.ttl,
    run: call.run,
    settle: settlementOf,
  });
  return createTaskResult(record, call.immediateResponse);
}

/**
 * @module How one protocol generation runs `tools/call` as tasks, as the call pipeline sees it:
 * which calls become tasks (2025-11-25: the call asks, with `params.task`, and the tool allows it;
 * the 2026 extension: the server decides, for a request that declared the extension), and how a
 * task starts and is answered. The pipeline asks the session port for its generation, so no era
 * code sits in `server/call/`.
 */
import type { Cancellation } from '../../jsonrpc/cancellation.js';
import type { Identity } from '../../jsonrpc/transport.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import type { CallToolParams } from '../../protocol/methods.js';
import type { InputChannel, TaskBinding } from '../input/inputChannel.js';
import type { ToolEntry } from '../registry/toolDefinition.js';
import type { SessionPort } from '../toolContext.js';
import type { TaskRuntime } from './taskRuntime.js';

/** A call that runs as a task: what it asked for. */
export interface TaskRequest {
  /** The TTL the call asked for, if any (2025-11-25 `params.task.ttl`). */
  readonly ttl: number | undefined;
  /**
   * The call runs inline first, gathering input by round trip, and becomes the task when its
   * handler calls `ctx.detach()` (a tool registered with `inputBeforeTask`, the extension).
   */
  readonly afterInput?: boolean;
}

/** What a task call starts. */
export interface CallTaskStart {
  readonly session: SessionPort;
  readonly identity: Identity | undefined;
  readonly ttl: number | undefined;
  /** The tool's text for the model while the task runs (2025-11-25). */
  readonly immediateResponse: string | undefined;
  /**
   * The tool's run: its CallToolResult. `input` is how the run asks the client for input when the
   * generation has its own way (the extension: `input_required` and `tasks/update`); else the
   * session's.
   */
  readonly run: (
    binding: TaskBinding,
    cancellation: Cancellation,
    input: InputChannel | undefined,
  ) => Promise<JsonObject>;
}

/** One generation's task calls. */
export interface TaskGeneration {
  /**
   * The task this call runs as, or undefined to run it as a plain call. Throws the generation's
   * refusal when the call and the tool disagree (2025-11-25: -32601; the extension: -32021 for a
   * tool that runs only as a task, asked by a request that did not declare the extension).
   */
  taskOf(entry: ToolEntry, params: CallToolParams): TaskRequest | undefined;
  /** Starts the task; resolves with the call's answer (a CreateTaskResult). */
  start(runtime: TaskRuntime, call: CallTaskStart): Promise<JsonObject>;
}

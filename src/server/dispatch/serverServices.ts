/**
 * @module What the era-neutral handlers need from their server: the tool registry's views, the
 * call pipeline's dependencies and the task runtime.
 */
import type { Identity } from '../../jsonrpc/transport.js';
import type { RawJson } from '../../jsonrpc/rawJson.js';
import type { RevisionProfile } from '../../protocol/eras/era.js';
import type { ParamHeader } from '../../protocol/eras/rev2026/paramHeaders.js';
import type { ListToolsResult, Tool } from '../../protocol/types.js';
import type { CallDependencies } from '../call/callPlan.js';
import type { MiddlewareChain } from '../middleware/middlewareChain.js';
import type { TaskRuntime } from '../tasks/taskRuntime.js';
import type { SessionPort } from '../toolContext.js';

/** The server behind the handlers. */
export interface ServerServices {
  /** The task runtime, when the server runs task-augmented calls. */
  readonly tasks: TaskRuntime | undefined;
  listTools(
    session: SessionPort,
    identity: Identity | undefined,
    cursor: string | undefined,
  ): ListToolsResult | RawJson<ListToolsResult>;
  readonly callDependencies: CallDependencies;
  /** The server-wide middleware (empty: requests take the inline path). */
  readonly middleware: MiddlewareChain;
  /** The `x-mcp-header` annotations of the enabled tool `name`; undefined: none, or no such tool. */
  paramHeaders(name: string): readonly ParamHeader[] | undefined;
  /** The enabled tool of that name as `profile`'s revision lists it, whoever asks (middleware see it). */
  toolDefinition(name: unknown, profile: RevisionProfile): Tool | undefined;
}

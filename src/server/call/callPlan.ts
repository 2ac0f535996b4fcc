/**
 * @module What one `tools/call` carries through the pipeline: the server's dependencies, the
 * request as the session hands it over, and the plan once the tool is found.
 */
import type { CancelSource } from '../../jsonrpc/cancellation.js';
import type { Identity } from '../../jsonrpc/transport.js';
import type { JsonObject, RequestId } from '../../jsonrpc/types.js';
import type { CallToolResult } from '../../protocol/types.js';
import type { RevisionProfile } from '../../protocol/eras/era.js';
import type { DeadlineSweep } from './deadlineSweep.js';
import type { MiddlewareRequest } from '../middleware/middleware.js';
import type { OutputPolicy } from '../sanitize/outputPolicy.js';
import type { RateLimitPolicy } from '../policy/rateLimitPolicy.js';
import type { TaskGeneration } from '../tasks/taskGeneration.js';
import type { TaskRuntime } from '../tasks/taskRuntime.js';
import type { SessionPort } from '../toolContext.js';
import type { ToolEntry } from '../registry/toolDefinition.js';

/** What the pipeline needs from the server. */
export interface CallDependencies {
  /** The enabled, visible tool of that name for this caller, if any. */
  findTool(
    name: string,
    session: SessionPort,
    identity: Identity | undefined,
  ): ToolEntry | undefined;
  /** The server's rate limits and concurrency cap. */
  readonly rateLimits: RateLimitPolicy;
  readonly defaultTimeoutMs: number;
  readonly structuredText: boolean;
  readonly exposeErrorMessages: boolean;
  /** The server's output sanitising (tools may refine it). */
  readonly outputPolicy: OutputPolicy;
  /** Largest result sent, as JSON bytes, unless the tool sets its own. */
  readonly maxResultBytes: number;
  /** Set when the server runs task-augmented calls. */
  readonly tasks: TaskRuntime | undefined;
  /** Watches the deadlines of calls whose handlers went async (one timer per server). */
  readonly deadlines: DeadlineSweep;
  /** Server-side diagnostics (stderr by default): never sent to the client. */
  report(error: unknown, what: string): void;
}

/** The incoming request as the session hands it over. */
export interface CallRequest {
  readonly id: RequestId;
  readonly params: JsonObject | undefined;
  /** The request as the connection tracks it; its cancellation is created only when needed. */
  readonly incoming: CancelSource;
  readonly identity: Identity | undefined;
  /** The caller's network address, when the transport knows it (rate limits of anonymous callers). */
  readonly clientAddress: string | undefined;
  /**
   * How the request's calls run as tasks when its era decides that itself (a 2026 request: the
   * tasks extension); undefined: 2025-11-25 tasks where the revision has them.
   */
  readonly taskGeneration?: TaskGeneration | undefined;
  /**
   * Set when the call goes through server-wide middleware: the request they see (per-tool
   * middleware see the same), and the output stage then runs as the chain's `sanitize` stage.
   */
  readonly policy?: MiddlewareRequest | undefined;
}

/** Everything one call needs once its tool is found (one object instead of several closures). */
export interface CallPlan {
  readonly deps: CallDependencies;
  readonly session: SessionPort;
  readonly request: CallRequest;
  readonly entry: ToolEntry;
  readonly meta: Record<string, unknown> | undefined;
  /** The revision the call is answered in: what it allows, how its result is cut down to it. */
  readonly profile: RevisionProfile;
  /**
   * The exit of the `sanitize` stage for what this part of the pipeline answers: the stage itself
   * when nothing sits between it and the handler (the inline composition, a task's stored result),
   * so a synchronous call passes it without a promise; a pass-through when the stage runs further
   * out (a step of the middleware chain, or around the tool's own middleware).
   */
  readonly exit: StageExit;
}

/** How a projected result leaves through (or past) the `sanitize` stage; chosen at composition. */
export type StageExit = (
  scope: Pick<CallPlan, 'deps' | 'entry' | 'profile'>,
  result: CallToolResult,
) => CallToolResult;

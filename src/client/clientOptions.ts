/**
 * @module The client's public option and description types: how a client is set up, how one
 * connection and one tool call are run, and what the client knows of the server once connected.
 */
import type { Progress } from '../jsonrpc/pendingRequests.js';
import type {
  ClientCapabilities,
  CallToolResult,
  Implementation,
  LoggingMessageParams,
  ServerCapabilities,
  Tool,
} from '../protocol/types.js';
import type { ProtocolVersion, Revision } from '../protocol/versions.js';
import type { TaskState } from './tasks/taskState.js';
import type { ApprovalPolicy, AuditSink } from './approval/policy.js';
import type { ResponseCache } from './cache/responseCache.js';
import type { ClientHandlers, HandlerCapabilityOptions } from './input/handlers.js';
import type { ClientInstrumentation } from './instrumentation.js';

/**
 * How the client talks to servers: `legacy`, the `initialize` handshake of 2024-11-05 to
 * 2025-11-25; `modern`, the stateless 2026-07-28 revision (`server/discover`, the revision and
 * capabilities in every request's `_meta`); `auto` (the default), whichever the server speaks.
 */
export type ProtocolEra = 'legacy' | 'modern' | 'auto';

/** What the client knows of the server once connected (from `initialize` or `server/discover`). */
export interface ServerDescription {
  protocolVersion: Revision;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
}

/** Client options; every limit has a default (docs/limits.md). */
export interface ClientOptions extends HandlerCapabilityOptions {
  /**
   * `auto` (default): probe with `server/discover` and fall back to `initialize` when the server
   * does not answer as a 2026-07-28 server (remembered per process or origin); `legacy` (the
   * `initialize` handshake only) or `modern` (2026-07-28 only: stateless, tools only).
   */
  protocolEra?: ProtocolEra;
  /**
   * Where results with 2026-07-28 cache hints (`ttlMs`, `cacheScope`) are kept: `tools/list`
   * pages are served from it while fresh. Default: a cache of this client's own (1000 entries).
   * Pass one {@link ResponseCache} to several clients to share `public` results between them
   * (`private` ones stay per credential); `false` caches nothing.
   */
  responseCache?: ResponseCache | false;
  /**
   * On 2026-07-28 sessions with a server that announces tool changes: keep a
   * `subscriptions/listen` stream open for them (the catalog and `onToolsChanged` follow it).
   * Default: true when `onToolsChanged` is set.
   */
  listen?: boolean;
  /**
   * On 2026-07-28 sessions with a server that offers the tasks extension
   * (`io.modelcontextprotocol/tasks`): speak it on the calls that need it (a call with `task`, and
   * once more a call refused with -32021 for a tool that runs only as a task), so the server may
   * answer with a task; `callTool` then follows the task (polling, answering its requests for
   * input through the handlers, cancelling it when the call is aborted) and resolves with the
   * tool's result. Default: true.
   */
  tasksExtension?: boolean;
  /** Answers to server requests; each one declares its capability. */
  handlers?: ClientHandlers;
  /** Extra capabilities (e.g. `experimental`). */
  capabilities?: ClientCapabilities;
  /** Revisions this client accepts; it offers the newest. Default: all four. */
  protocolVersions?: readonly ProtocolVersion[];
  /** Default request timeout. Default 60 000 ms. */
  requestTimeoutMs?: number;
  /** Default hard cap on a request's total time, progress included. Default 600 000 ms. */
  maxTotalTimeoutMs?: number;
  /** Validate structured results against output schemas. Default true. */
  validateStructuredContent?: boolean;
  /** Most `tools/list` pages one listing may take. Default 1000. */
  maxListPages?: number;
  /** The human in the loop. */
  approval?: ApprovalPolicy;
  /** The audit trail of exposed tools, calls, decisions and outcomes. */
  audit?: AuditSink;
  /** Called with the fresh tool list after a `list_changed` refresh. */
  onToolsChanged?: (tools: Tool[]) => void;
  /** Log messages from the server. */
  onLog?: (message: LoggingMessageParams) => void;
  /**
   * Every task status notification the server sends: `notifications/tasks/status` (2025-11-25),
   * `notifications/tasks` on a listen (the tasks extension). Tasks started by `callTool` also
   * report theirs to the call's `ontaskstatus`.
   */
  onTaskStatus?: (task: TaskState) => void;
  /** Faults that did not fail a call (bad notifications, skipped tools, refresh errors). */
  onerror?: (error: Error) => void;
  /**
   * Called once when the connection of `connect()` ends: the server went away (a stdio server
   * that exited, a Streamable HTTP session that was deleted) or `close()` was called.
   */
  onclose?: () => void;
  /**
   * Wraps every request the client sends, for traces and metrics (`clientTelemetry()` of
   * `toolwire/otel` builds one). Unset: requests go straight out.
   */
  instrument?: ClientInstrumentation;
}

/** Options of one tool call. */
export interface CallToolOptions {
  signal?: AbortSignal;
  /** Default: the client's `requestTimeoutMs`. */
  timeoutMs?: number;
  /** Default: the client's `maxTotalTimeoutMs`. */
  maxTotalTimeoutMs?: number;
  /** Restart the timeout whenever progress arrives (never past the total cap). */
  resetTimeoutOnProgress?: boolean;
  /** Ask for progress and receive it here. */
  onprogress?: (progress: Progress) => void;
  /** Check `structuredContent` against the output schema. Default: the client's setting. */
  validateOutput?: boolean;
  /** `_meta` to send with the request. */
  meta?: Record<string, unknown>;
  /**
   * Run the call as a task when the tool allows it (`taskSupport: "optional"`); tools that
   * require it always run as tasks. An object sets the requested TTL (2025-11-25; on 2026-07-28
   * the server sets it). On 2026-07-28 the call declares the tasks extension and the server
   * decides.
   */
  task?: boolean | { ttl?: number };
  /**
   * Status of the task the call runs as (creation, polling, status notifications), each change
   * once and in order, the terminal one included; both task generations in one shape.
   */
  ontaskstatus?: (task: TaskState) => void;
  /** The server's text for the model while the task runs (model-immediate-response). */
  onimmediateresponse?: (text: string) => void;
}

/** Options of `McpClient.startTask`. */
export interface StartTaskOptions {
  signal?: AbortSignal;
  /** Of the creating request. Default: the client's `requestTimeoutMs`. */
  timeoutMs?: number;
  /** Requested TTL in ms (2025-11-25; a 2026-07-28 server sets its own). */
  ttl?: number;
  /** Check a result the server returned at once. Default: the client's setting. */
  validateOutput?: boolean;
  /** `_meta` to send with the request. */
  meta?: Record<string, unknown>;
}

/**
 * What `startTask` got: the task the server created, or the tool's result when the server ran
 * the call at once (a 2026-07-28 server decides per call; a server without tasks for tools).
 */
export type StartedTask =
  { task: TaskState; result?: undefined } | { result: CallToolResult; task?: undefined };

/** Options of `McpClient.connect`. */
export interface ConnectClientOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * @module The client's era seam: what differs between a 2025-era session (the `initialize`
 * handshake) and a 2026-07-28 one (stateless, self-describing requests), as one interface. The era
 * is chosen once, when `connect()` opens the session (negotiate.ts); the facade, the tools and the
 * tasks behind it ask the session and never which era they are in.
 */
import type { Connection, RequestOptions } from '../../jsonrpc/connection.js';
import type { LocalError } from '../../jsonrpc/errors.js';
import type { Transport } from '../../jsonrpc/transport.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import type { JsonSchemaDialect } from '../../protocol/jsonSchema.js';
import type {
  ClientCapabilities,
  Implementation,
  LoggingLevel,
  Tool,
} from '../../protocol/types.js';
import type { ProtocolVersion, RevisionFeatures } from '../../protocol/versions.js';
import type { CallToolOptions, ConnectClientOptions, ServerDescription } from '../clientOptions.js';
import type { ResponseCache } from '../cache/responseCache.js';
import type { ServerRequestHost } from '../input/serverRequests.js';
import type { ToolCallScope } from '../instrumentation.js';
import type { TaskState } from '../tasks/taskState.js';
import type { ExtensionLink } from './extensionTasks.js';

/**
 * How one `tools/call` request is sent (the call's options and its instrumentation scope); `start`:
 * a task the server makes of it is returned as created (`resultType: "task"`), not followed.
 */
export type CallSendOptions = CallToolOptions & { scope?: ToolCallScope; start?: boolean };

/** One connected session as its era runs it. */
export interface EraSession {
  /** What the client knows of the server (from `initialize` or `server/discover`). */
  readonly server: ServerDescription;
  /** What the agreed revision allows (result shapes, batches, unreadable error ids). */
  readonly features: RevisionFeatures;
  /** How a schema without `$schema` is read. */
  readonly schemaDialect: JsonSchemaDialect;
  /** True when a complete tool listing stays true until `list_changed` arrives. */
  readonly trustsCompleteListing: boolean;
  /** True while a `subscriptions/listen` stream for tool changes is acknowledged (2026-07-28). */
  readonly listening: boolean;
  /** True when every call needs the tool's definition (not only to validate or approve it). */
  readonly callsNeedDefinition: boolean;
  /** The refusal of a method the client does not speak on this session; undefined when it does. */
  unspoken(method: string): LocalError | undefined;
  /**
   * Whether the server runs `tools/call` as a task on this session; throws an `invalid-tool`
   * LocalError when the call asks for a task and the era has none.
   */
  taskCallsOffered(requested: CallToolOptions['task']): boolean;
  /** One `tools/list` page, as the server answered it. */
  listPage(
    connection: Connection,
    cursor: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<JsonObject>;
  /** The tools of a complete listing as the era keeps them (dropping ones it must refuse). */
  keepTools(tools: Tool[]): Tool[];
  /**
   * The lowest level of log messages the server should send: `logging/setLevel` (2025), or the
   * `_meta` log level of every request from now on (2026-07-28, which sends none without it).
   */
  setLogLevel(connection: Connection, level: LoggingLevel): Promise<void>;
  /** The server's tools changed (or may have, unannounced): cached listings are forgotten. */
  toolsChanged(): void;
  /** The server acknowledged a `subscriptions/listen` stream (`params` as sent). */
  acknowledged(params: JsonObject | undefined): void;
  /**
   * The tasks extension's requests on this connection (2026-07-28): undefined when the server
   * does not offer the extension or the client does not speak it; absent on 2025 sessions.
   */
  extensionLink?(connection: Connection): ExtensionLink | undefined;
  /** One `tools/call` (with its rounds of input, where the era has them), answered. */
  sendCall(
    connection: Connection,
    params: JsonObject,
    options: CallSendOptions,
  ): Promise<JsonObject>;
}

/** What opening a session needs. */
export interface Opening {
  readonly connection: Connection;
  readonly transport: Transport;
  readonly clientInfo: Implementation;
  /** The capabilities the client declares (its handlers' and its own). */
  readonly capabilities: ClientCapabilities;
  /** The 2025-era revisions the client accepts (default: all). */
  readonly accepted: readonly ProtocolVersion[] | undefined;
  readonly options: ConnectClientOptions;
  /** The application's handlers of the server's requests (2026-07-28 asks in-band). */
  readonly input: ServerRequestHost;
  /** Faults that do not fail a call (a tool left out of a listing). */
  readonly report: (error: Error) => void;
  /** The log level 2026 requests ask for until `setLogLevel` (the client takes log messages). */
  readonly logLevel: LoggingLevel | undefined;
  /** Where results with cache hints are kept (2026-07-28); undefined: nowhere. */
  readonly cache: ResponseCache | undefined;
  /** Whether to open `subscriptions/listen` for tool changes (2026-07-28), when the server has them. */
  readonly listen: boolean;
  /** Whether to declare the tasks extension (2026-07-28) when the server offers it. */
  readonly tasksExtension: boolean;
  /** The tools may have changed unannounced (a reopened listen stream). */
  readonly missedChanges: () => void;
  /** Subscribes to one task's status notifications; returns the stop. */
  readonly watchTask: (taskId: string, listener: (task: TaskState) => void) => () => void;
  /** Called the moment the server's description is accepted, before anything more is sent. */
  agreed(session: EraSession): void;
}

/** The request options of one `tools/call` as the call's options give them. */
export function callRequestOptions(options: CallToolOptions): RequestOptions {
  return {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.maxTotalTimeoutMs !== undefined
      ? { maxTotalTimeoutMs: options.maxTotalTimeoutMs }
      : {}),
    ...(options.resetTimeoutOnProgress !== undefined
      ? { resetTimeoutOnProgress: options.resetTimeoutOnProgress }
      : {}),
    ...(options.onprogress ? { onprogress: options.onprogress } : {}),
  };
}

/** The request options of the opening request (`initialize`, `server/discover`). */
export function openingRequestOptions(options: ConnectClientOptions): RequestOptions {
  return {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  };
}

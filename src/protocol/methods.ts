/**
 * @module One descriptor per MCP method toolwire handles: name, direction and the revision that
 * introduced it, with the params and result types attached (STYLE.md §2.8). Typed `request` and
 * `notify` helpers on server and client take these descriptors.
 */
import type { JsonObject } from '../jsonrpc/types.js';
import type {
  CallToolResult,
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  InitializeParams,
  InitializeResult,
  ListRootsResult,
  ListToolsResult,
  LoggingLevel,
  LoggingMessageParams,
  ProgressParams,
} from './types.js';
import type { ProtocolVersion } from './versions.js';

/** Who sends a method. */
export type Direction = 'client-to-server' | 'server-to-client' | 'both';

/** A request method and its params and result types. */
export interface RequestMethod<P, R> {
  readonly kind: 'request';
  readonly method: string;
  readonly direction: Direction;
  readonly since: ProtocolVersion;
  /** Type carrier only; never set. */
  readonly types?: { params: P; result: R };
}

/** A notification method and its params type. */
export interface NotificationMethod<P> {
  readonly kind: 'notification';
  readonly method: string;
  readonly direction: Direction;
  readonly since: ProtocolVersion;
  /** Type carrier only; never set. */
  readonly types?: { params: P };
}

function request<P, R>(
  method: string,
  direction: Direction,
  since: ProtocolVersion,
): RequestMethod<P, R> {
  return { kind: 'request', method, direction, since };
}

function notification<P>(
  method: string,
  direction: Direction,
  since: ProtocolVersion,
): NotificationMethod<P> {
  return { kind: 'notification', method, direction, since };
}

/** Params of `tools/call`. */
export interface CallToolParams {
  name: string;
  arguments?: Record<string, unknown>;
  /** 2025-11-25: run as a task. */
  task?: { ttl?: number };
  _meta?: Record<string, unknown>;
}

/** Params of paginated list requests. */
export interface PaginatedParams {
  cursor?: string;
  _meta?: Record<string, unknown>;
}

/** `initialize` */
export const Initialize = request<InitializeParams, InitializeResult>(
  'initialize',
  'client-to-server',
  '2024-11-05',
);
/** `ping` (either side) */
export const Ping = request<JsonObject, JsonObject>('ping', 'both', '2024-11-05');
/** `tools/list` */
export const ListTools = request<PaginatedParams, ListToolsResult>(
  'tools/list',
  'client-to-server',
  '2024-11-05',
);
/** `tools/call` */
export const CallTool = request<CallToolParams, CallToolResult>(
  'tools/call',
  'client-to-server',
  '2024-11-05',
);
/** `logging/setLevel` */
export const SetLevel = request<{ level: LoggingLevel }, JsonObject>(
  'logging/setLevel',
  'client-to-server',
  '2024-11-05',
);
/** `sampling/createMessage` */
export const CreateMessage = request<CreateMessageParams, CreateMessageResult>(
  'sampling/createMessage',
  'server-to-client',
  '2024-11-05',
);
/** `elicitation/create` */
export const Elicit = request<ElicitParams, ElicitResult>(
  'elicitation/create',
  'server-to-client',
  '2025-06-18',
);
/** `roots/list` */
export const ListRoots = request<JsonObject, ListRootsResult>(
  'roots/list',
  'server-to-client',
  '2024-11-05',
);

/** `notifications/initialized` */
export const Initialized = notification<JsonObject>(
  'notifications/initialized',
  'client-to-server',
  '2024-11-05',
);
/** `notifications/tools/list_changed` */
export const ToolListChanged = notification<JsonObject>(
  'notifications/tools/list_changed',
  'server-to-client',
  '2024-11-05',
);
/** `notifications/message` */
export const LoggingMessage = notification<LoggingMessageParams>(
  'notifications/message',
  'server-to-client',
  '2024-11-05',
);
/** `notifications/progress` */
export const ProgressNotification = notification<ProgressParams>(
  'notifications/progress',
  'both',
  '2024-11-05',
);
/** `notifications/cancelled` */
export const Cancelled = notification<{ requestId?: string | number; reason?: string }>(
  'notifications/cancelled',
  'both',
  '2024-11-05',
);
/** `notifications/roots/list_changed` */
export const RootsListChanged = notification<JsonObject>(
  'notifications/roots/list_changed',
  'client-to-server',
  '2024-11-05',
);
/** `notifications/elicitation/complete` (2025-11-25, URL mode) */
export const ElicitationComplete = notification<{ elicitationId: string }>(
  'notifications/elicitation/complete',
  'server-to-client',
  '2025-11-25',
);

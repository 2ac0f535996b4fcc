/**
 * @module The MCP vocabulary toolwire speaks, as TypeScript types: the union of the four
 * revisions, newest fields marked with the revision that added them. These hand-written types are
 * the single source of truth; tests validate every message built from them against the official
 * JSON Schema of the revision it was sent to (docs/design-notes.md: "Why no Zod in the protocol
 * layer").
 */
import type { ProgressToken } from '../jsonrpc/types.js';
import type { ProtocolVersion } from './versions.js';

/** Free-form metadata (`_meta`). */
export type Meta = Record<string, unknown>;

/** Who a piece of content is for. */
export type Role = 'user' | 'assistant';

/** An icon for display (2025-11-25). */
export interface Icon {
  /** An `https:` or `data:` URI. */
  src: string;
  mimeType?: string;
  /** Sizes such as `"48x48"`, or `"any"` for scalable formats. */
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** The name and version of an MCP implementation (`clientInfo` / `serverInfo`). */
export interface Implementation {
  name: string;
  version: string;
  /** 2025-06-18+ */
  title?: string;
  /** 2025-11-25 */
  description?: string;
  /** 2025-11-25 */
  icons?: Icon[];
  /** 2025-11-25 */
  websiteUrl?: string;
}

/** Hints about a tool's behaviour. Untrusted unless the server is trusted (2025-03-26+). */
export interface ToolAnnotations {
  title?: string;
  /** Default false. */
  readOnlyHint?: boolean;
  /** Default true; meaningful only when not read-only. */
  destructiveHint?: boolean;
  /** Default false. */
  idempotentHint?: boolean;
  /** Default true. */
  openWorldHint?: boolean;
}

/** Whether a tool may, must or must not be run as a task (2025-11-25). */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

/** Execution properties of a tool (2025-11-25). */
export interface ToolExecution {
  taskSupport?: TaskSupport;
}

/** A JSON Schema whose root describes an object, as tool input and output schemas must. */
export interface ObjectJsonSchema {
  type: 'object';
  $schema?: string;
  properties?: Record<string, unknown>;
  required?: readonly string[];
  [keyword: string]: unknown;
}

/**
 * A JSON Schema (2020-12) as an output schema may be: since 2026-07-28 its root may describe any
 * value (an array, a string...), not only an object. 2025-era peers receive a non-object one
 * wrapped as `{ result: … }`.
 */
export interface JsonSchemaObject {
  $schema?: string;
  type?: unknown;
  [keyword: string]: unknown;
}

/** A tool definition as listed by `tools/list`. */
export interface Tool {
  name: string;
  /** 2025-06-18+ */
  title?: string;
  description?: string;
  inputSchema: ObjectJsonSchema;
  /** 2025-06-18+ (an object root before 2026-07-28; any root since). */
  outputSchema?: JsonSchemaObject;
  /** 2025-03-26+ */
  annotations?: ToolAnnotations;
  /** 2025-11-25 */
  icons?: Icon[];
  /** 2025-11-25 */
  execution?: ToolExecution;
  /** 2025-06-18+ */
  _meta?: Meta;
}

/** Audience, priority and modification time of a piece of content. */
export interface Annotations {
  audience?: Role[];
  /** 0 (least important) to 1 (most important). */
  priority?: number;
  /** ISO 8601; 2025-06-18+ */
  lastModified?: string;
}

/** Plain text. */
export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: Meta;
}

/** A base64-encoded image. */
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
}

/** Base64-encoded audio (2025-03-26+). */
export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
}

/** A link to a resource the client may fetch or subscribe to (2025-06-18+). */
export interface ResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  /** 2025-11-25 */
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: Meta;
}

/** Text contents of a resource. */
export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Meta;
}

/** Binary contents of a resource, base64-encoded. */
export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  blob: string;
  _meta?: Meta;
}

/** A resource embedded in a result. */
export interface EmbeddedResource {
  type: 'resource';
  resource: TextResourceContents | BlobResourceContents;
  annotations?: Annotations;
  _meta?: Meta;
}

/** Any block of a tool result's `content`. */
export type ContentBlock =
  TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** The result of `tools/call`. */
export interface CallToolResult {
  content: ContentBlock[];
  /**
   * 2025-06-18+. An object for 2025-era peers; any JSON value since 2026-07-28 (a 2025-era peer
   * receives a non-object one as `{ result: … }`).
   */
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Meta;
}

/** The result of one `tools/list` page. */
export interface ListToolsResult {
  tools: Tool[];
  nextCursor?: string;
  _meta?: Meta;
}

/** Capabilities a client declares. */
export interface ClientCapabilities {
  experimental?: Record<string, object>;
  roots?: { listChanged?: boolean };
  /** `context` and `tools` are 2025-11-25. */
  sampling?: { context?: object; tools?: object };
  /** 2025-06-18+; `form` and `url` are 2025-11-25. */
  elicitation?: { form?: object; url?: object };
  /** 2025-11-25 */
  tasks?: {
    list?: object;
    cancel?: object;
    requests?: { sampling?: { createMessage?: object }; elicitation?: { create?: object } };
  };
  /** 2026-07-28: extensions the client supports, by identifier (e.g. the tasks extension). */
  extensions?: Record<string, object>;
}

/** Capabilities a server declares. */
export interface ServerCapabilities {
  experimental?: Record<string, object>;
  logging?: object;
  /** 2025-03-26+ */
  completions?: object;
  prompts?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  tools?: { listChanged?: boolean };
  /** 2025-11-25 */
  tasks?: { list?: object; cancel?: object; requests?: { tools?: { call?: object } } };
  /** 2026-07-28: extensions the server supports, by identifier (e.g. the tasks extension). */
  extensions?: Record<string, object>;
}

/** Params of `initialize`. */
export interface InitializeParams {
  protocolVersion: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
  _meta?: Meta;
}

/** The result of `initialize`. */
export interface InitializeResult {
  protocolVersion: ProtocolVersion;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
  _meta?: Meta;
}

/** Syslog severities used by MCP logging, least severe first. */
export const LOGGING_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;

/** One logging severity. */
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

/** Params of `notifications/message`. */
export interface LoggingMessageParams {
  level: LoggingLevel;
  logger?: string;
  data: unknown;
  _meta?: Meta;
}

/** Params of `notifications/progress`. */
export interface ProgressParams {
  progressToken: ProgressToken;
  progress: number;
  total?: number;
  /** 2025-03-26+ */
  message?: string;
  _meta?: Meta;
}

/** Content a sampling message may carry. */
export type SamplingContent = TextContent | ImageContent | AudioContent | Record<string, unknown>;

/** One message of a sampling conversation. */
export interface SamplingMessage {
  role: Role;
  content: SamplingContent | SamplingContent[];
  _meta?: Meta;
}

/** Params of `sampling/createMessage` (server → client). */
export interface CreateMessageParams {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  temperature?: number;
  stopSequences?: string[];
  metadata?: Record<string, unknown>;
  modelPreferences?: {
    hints?: Array<{ name?: string }>;
    costPriority?: number;
    speedPriority?: number;
    intelligencePriority?: number;
  };
  /** 2025-11-25: tools the model may use, and how. */
  tools?: Tool[];
  toolChoice?: { mode?: 'auto' | 'none' | 'required' };
  _meta?: Meta;
}

/** The result of `sampling/createMessage`. */
export interface CreateMessageResult {
  role: Role;
  content: SamplingContent | SamplingContent[];
  model: string;
  stopReason?: string;
  _meta?: Meta;
}

/** Params of a form-mode `elicitation/create` (2025-06-18+). */
export interface ElicitFormParams {
  mode?: 'form';
  message: string;
  requestedSchema: {
    type: 'object';
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
    $schema?: string;
  };
  _meta?: Meta;
}

/** Params of a URL-mode `elicitation/create` (2025-11-25). */
export interface ElicitUrlParams {
  mode: 'url';
  message: string;
  url: string;
  elicitationId: string;
  _meta?: Meta;
}

/** Params of `elicitation/create`. */
export type ElicitParams = ElicitFormParams | ElicitUrlParams;

/** The result of `elicitation/create`. */
export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
  _meta?: Meta;
}

/** A root the client exposes. */
export interface Root {
  uri: string;
  name?: string;
  _meta?: Meta;
}

/** The result of `roots/list`. */
export interface ListRootsResult {
  roots: Root[];
  _meta?: Meta;
}

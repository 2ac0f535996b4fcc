/**
 * @module `toolwire`: server, client, in-memory transport, errors and the MCP types. Node-only
 * pieces live behind `toolwire/stdio`.
 */
export {
  audio,
  embeddedBlob,
  embeddedText,
  image,
  McpServer,
  MemoryTaskStore,
  newTaskRecord,
  resourceLink,
  ServerSession,
  TaskLimitError,
  text,
  toolError,
  ToolError,
} from './server.js';
export type {
  ClientRequestOptions,
  ConnectOptions,
  ContentOptions,
  CreateTaskOptions,
  MemoryTaskStoreOptions,
  Task,
  TaskEvent,
  TaskOptions,
  TaskOutcome,
  TaskPage,
  TaskRecord,
  TaskStatus,
  TaskStore,
  TransitionOptions,
  TransitionResult,
  FromJsonSchema,
  InferInput,
  InferOutput,
  JsonSchemaInput,
  RateLimitRule,
  RegisteredTool,
  SchemaInput,
  ServerOptions,
  SessionInfo,
  StructuredReturn,
  ToolArgs,
  ToolConfig,
  ToolContext,
  ToolHandler,
  ToolLogger,
  ToolReturn,
  ToolUpdate,
  ToolVisibility,
  UnstructuredReturn,
} from './server.js';
export { fingerprintTool, McpClient } from './client.js';
export type {
  ApprovalDecision,
  ApprovalPolicy,
  ApprovalReason,
  ApprovalRequest,
  AuditEvent,
  AuditSink,
  CallToolOptions,
  ClientHandlers,
  ClientOptions,
  ConnectClientOptions,
  HandlerCapabilityOptions,
  Progress,
  ServerRequestContext,
  WalkOptions,
} from './client.js';
export { createLinkedPair, InMemoryTransport } from './transports/memory.js';
export type { LinkedPairOptions } from './transports/memory.js';
export { ErrorCode, LocalError, RpcError } from './jsonrpc/errors.js';
export type { ErrorCodeValue, LocalErrorCode } from './jsonrpc/errors.js';
export type { Identity, MessageInfo, SendOptions, Transport } from './jsonrpc/transport.js';
export type { EnvelopeHint } from './jsonrpc/decode.js';
export type {
  JsonObject,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  ProgressToken,
  RequestId,
} from './jsonrpc/types.js';
export { JsonSchemaNotLoaded, preloadJsonSchemaSupport } from './protocol/ajvLoader.js';
export { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from './protocol/versions.js';
export type { ProtocolVersion } from './protocol/versions.js';
export type {
  Annotations,
  AudioContent,
  BlobResourceContents,
  CallToolResult,
  ClientCapabilities,
  ContentBlock,
  CreateMessageParams,
  CreateMessageResult,
  ElicitFormParams,
  ElicitParams,
  ElicitResult,
  ElicitUrlParams,
  EmbeddedResource,
  Icon,
  ImageContent,
  Implementation,
  InitializeResult,
  ListRootsResult,
  ListToolsResult,
  LoggingLevel,
  LoggingMessageParams,
  Meta,
  ObjectJsonSchema,
  ResourceLink,
  Root,
  ServerCapabilities,
  TaskSupport,
  TextContent,
  TextResourceContents,
  Tool,
  ToolAnnotations,
  ToolExecution,
} from './protocol/types.js';

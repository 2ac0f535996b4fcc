/**
 * @module `toolwire/server`: the MCP tools server, result helpers and their types.
 */
export { JsonSchemaNotLoaded, preloadJsonSchemaSupport } from './protocol/ajvLoader.js';
export { McpServer } from './server/mcpServer.js';
export type { ConnectOptions, ServerOptions, ToolVisibility } from './server/mcpServer.js';
export type { InputRoundTripOptions } from './server/input/inputRound.js';
export { MemorySpentStates } from './server/input/spentStates.js';
export type { SpentStateStore } from './server/input/spentStates.js';
export { ServerSession } from './server/serverSession.js';
export type { RegisteredTool, ToolUpdate } from './server/registry/toolRegistry.js';
export type {
  StructuredReturn,
  ToolArgs,
  ToolConfig,
  ToolHandler,
  ToolReturn,
  UnstructuredReturn,
} from './server/registry/toolDefinition.js';
export type {
  ClientRequestOptions,
  SessionInfo,
  ToolContext,
  ToolLogger,
} from './server/toolContext.js';
export type {
  InferInput,
  InferOutput,
  JsonSchemaInput,
  OutputJsonSchemaInput,
  OutputSchemaInput,
  SchemaInput,
} from './server/registry/toolSchema.js';
export type { FromJsonSchema } from './server/registry/inferJsonSchema.js';
export { POLICY_STAGES } from './server/middleware/middleware.js';
export type {
  Middleware,
  MiddlewareNext,
  MiddlewarePlacement,
  MiddlewareRequest,
  PolicyStage,
} from './server/middleware/middleware.js';
export type {
  IncomingRequestView,
  ServerInstrumentation,
  ServerSessionView,
  SessionObserver,
} from './server/middleware/instrumentation.js';
export { MemoryRateLimitStore } from './server/policy/memoryRateLimitStore.js';
export type { MemoryRateLimitStoreOptions } from './server/policy/memoryRateLimitStore.js';
export type {
  Admission,
  Admitted,
  AdmitRequest,
  BucketTake,
  RateLimitRule,
  RateLimitStore,
  Refused,
  SlotTake,
} from './server/policy/rateLimitStore.js';
export type {
  ConcurrencyLimit,
  RateLimitOptions,
  ServerRateLimitOption,
} from './server/policy/rateLimitOptions.js';
export type { RateLimitKind } from './server/policy/rateLimitPolicy.js';
export type { ListenLimits } from './server/notify/listenStreams.js';
export type { TaskOptions } from './server/tasks/taskOptions.js';
export { MemoryTaskStore } from './tasks/memoryTaskStore.js';
export type { MemoryTaskStoreOptions } from './tasks/memoryTaskStore.js';
export { newTaskRecord, TaskLimitError } from './tasks/taskStore.js';
export type {
  CreateTaskOptions,
  TaskEvent,
  TaskPage,
  TaskStore,
  TransitionOptions,
  TransitionResult,
} from './tasks/taskStore.js';
export type { Task } from './tasks/eras/rev2025/taskWire.js';
export type { TaskOutcome, TaskRecord } from './tasks/taskRecord.js';
export type { TaskStatus } from './tasks/taskStatus.js';
export {
  audio,
  embeddedBlob,
  embeddedText,
  image,
  resourceLink,
  text,
  toolError,
  ToolError,
} from './server/results.js';
export type { ContentOptions } from './server/results.js';
export { DEFAULT_URI_SCHEMES } from './server/sanitize/outputPolicy.js';
export type { RefusedUriAction, SanitizeOptions } from './server/sanitize/outputPolicy.js';
export { COMMON_SECRET_PATTERNS } from './server/sanitize/secretPatterns.js';
export type { Redaction, RedactFunction, RedactionRule } from './server/sanitize/redaction.js';
export type { UriCheck } from './server/sanitize/uriSchemes.js';

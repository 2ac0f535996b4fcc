/**
 * @module `toolwire/client`: the MCP tools client, its approval policy and audit trail.
 */
export { McpClient } from './client/mcpClient.js';
export { ResponseCache } from './client/cache/responseCache.js';
export type { CacheRequest, ResponseCacheOptions } from './client/cache/responseCache.js';
export type {
  CallToolOptions,
  ClientOptions,
  ConnectClientOptions,
  ProtocolEra,
  ServerDescription,
  StartedTask,
  StartTaskOptions,
} from './client/clientOptions.js';
export type {
  ClientHandlers,
  HandlerCapabilityOptions,
  ServerRequestContext,
} from './client/input/handlers.js';
export { MemoryApprovalStore } from './client/approval/policy.js';
export type {
  ApprovalDecision,
  ApprovalPolicy,
  ApprovalReason,
  ApprovalRequest,
  ApprovalStore,
  ApprovedDefinition,
  AuditEvent,
  AuditSink,
} from './client/approval/policy.js';
export { renamedFrom, resemblance } from './client/approval/renames.js';
export type { Renamed, Resemblance } from './client/approval/renames.js';
export {
  hiddenTagText,
  invisibleCharacters,
  nameSkeleton,
  revealInvisible,
  toolTextFindings,
} from './client/approval/toolText.js';
export type { ToolTextFinding } from './client/approval/toolText.js';
export { ServerToolNames } from './client/approval/serverToolNames.js';
export type { ExposedTool, ServerToolNamesOptions } from './client/approval/serverToolNames.js';
export type {
  ClientInstrumentation,
  ClientRequest,
  ClientSessionView,
  IncomingRequestView,
  SessionObserver,
  ToolCallScope,
  ToolCallView,
} from './client/instrumentation.js';
export type {
  ApprovalAsked,
  ApprovalDecided,
  ApprovalObserver,
  ApprovalStep,
  DecisionSource,
  DefinitionChange,
} from './client/approval/steps.js';
export {
  canonicalJson,
  definitionChanges,
  fingerprintTool,
} from './client/approval/fingerprint.js';
export type { WalkOptions } from './client/tools/toolLister.js';
export type { Progress } from './jsonrpc/pendingRequests.js';
export type { Task } from './tasks/eras/rev2025/taskWire.js';
export type { TaskState } from './client/tasks/taskState.js';
export type { TaskStatus } from './tasks/taskStatus.js';

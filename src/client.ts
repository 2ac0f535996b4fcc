/**
 * @module `toolwire/client`: the MCP tools client, its approval policy and audit trail.
 */
export { McpClient } from './client/mcpClient.js';
export type {
  CallToolOptions,
  ClientOptions,
  ConnectClientOptions,
  ProtocolEra,
  ServerDescription,
} from './client/mcpClient.js';
export type {
  ClientHandlers,
  HandlerCapabilityOptions,
  ServerRequestContext,
} from './client/serverRequests.js';
export { MemoryApprovalStore } from './client/approval.js';
export type {
  ApprovalDecision,
  ApprovalPolicy,
  ApprovalReason,
  ApprovalRequest,
  ApprovalStore,
  ApprovedDefinition,
  AuditEvent,
  AuditSink,
} from './client/approval.js';
export type {
  ClientInstrumentation,
  ClientRequest,
  ClientSessionView,
} from './client/instrumentation.js';
export { fingerprintTool } from './client/fingerprint.js';
export type { WalkOptions } from './client/toolLister.js';
export type { Progress } from './jsonrpc/pendingRequests.js';
export type { Task, TaskStatus } from './tasks/taskTypes.js';

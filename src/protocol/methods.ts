/**
 * @module One descriptor per MCP method toolwire handles (STYLE.md §2.8), re-exported from the
 * `methods/` folder: name, direction, the revision that introduced it and the eras that have it,
 * the params guard, the capability it needs, with the params and result types attached. Each
 * era's method table is `registryFor(era)`. Import from here; the folder's layout may change.
 */
export {
  BOTH_ERAS,
  ERA_2025,
  ERA_2026,
  type CapabilityNeed,
  type Direction,
  type MethodDescriptor,
  type NotificationMethod,
  type ParamsGuard,
  type ParamsOf,
  type RequestMethod,
  type ResultOf,
} from './methods/descriptor.js';
export type { CallToolParams, PaginatedParams, TaskIdParams } from './methods/paramTypes.js';
export { Discover, Initialize, Initialized, Ping, SetLevel } from './methods/lifecycle.js';
export { CallTool, ListTools, ToolListChanged } from './methods/tools.js';
export {
  CancelTask,
  GetTask,
  GetTaskResult,
  ListTasks,
  TaskStatus,
  TasksNotification,
  UpdateTask,
} from './methods/tasks.js';
export {
  CreateMessage,
  Elicit,
  ElicitationComplete,
  ListRoots,
  RootsListChanged,
} from './methods/clientInput.js';
export {
  Cancelled,
  Listen,
  LoggingMessage,
  ProgressNotification,
  PromptListChanged,
  ResourceListChanged,
  SubscriptionsAcknowledged,
  type ListenParams,
} from './methods/notifications.js';
export {
  ALL_METHODS,
  methodNotFound,
  registryFor,
  type MethodRegistry,
} from './methods/registry.js';
export { ERA_NAMES, type EraName } from './eras/eraName.js';

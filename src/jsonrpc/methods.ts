/**
 * @module The MCP method names that the layers below `protocol/` must recognise on the wire,
 * spelled once here so that the descriptors (`protocol/methods/`) take their names from these
 * constants rather than spelling them again. Two kinds:
 * - the notifications the connection itself consumes, cancellation and progress: MCP's, but bound
 *   to request correlation (as vscode-jsonrpc keeps `$/cancelRequest` and `$/progress` in its
 *   connection); and `initialize`, which the connection never lets be cancelled;
 * - the few names the transports, stores, the OAuth probe and toolwire/otel route by: they may
 *   import only this layer (eslint.config.js), and the names are facts of the wire, not of an era.
 * Everything above (server, client, tasks, testing) names methods by their descriptors.
 */

/** `notifications/cancelled`: the sender no longer wants the response to a request. */
export const CANCELLED = 'notifications/cancelled';

/** `notifications/progress`: progress of a request that carried `_meta.progressToken`. */
export const PROGRESS = 'notifications/progress';

/** `initialize`: opens a 2025 session; never cancellable; the OAuth probe sends one. */
export const INITIALIZE = 'initialize';

/** `notifications/initialized`: the client's answer to `initialize`, local to where it arrives. */
export const INITIALIZED = 'notifications/initialized';

/** `notifications/message`: a log message, the one kind a congested transport may drop. */
export const LOG_MESSAGE = 'notifications/message';

/** `tools/call`: the HTTP transports read its tool name (per-tool scopes, `Mcp-Name`). */
export const TOOLS_CALL = 'tools/call';

/**
 * `tasks/get`, `tasks/update` and `tasks/cancel`: over Streamable HTTP (2026 tasks extension) their
 * `Mcp-Name` header is the task id, so that a load balancer routes them to the task's instance.
 */
export const TASKS_GET = 'tasks/get';
export const TASKS_UPDATE = 'tasks/update';
export const TASKS_CANCEL = 'tasks/cancel';

/** `tasks/result`: a task's outcome, a tool result (toolwire/otel reads its `isError`). */
export const TASKS_RESULT = 'tasks/result';

/**
 * A task's state, each one whole: a later one replaces a waiting one for a congested reader.
 * `notifications/tasks/status` (2025-11-25) and `notifications/tasks` (the 2026 tasks extension).
 */
export const TASK_STATUS = 'notifications/tasks/status';
export const TASK_STATE = 'notifications/tasks';

/** The list_changed notifications every instance of a cluster sends on its own. */
export const TOOLS_LIST_CHANGED = 'notifications/tools/list_changed';
export const RESOURCES_LIST_CHANGED = 'notifications/resources/list_changed';
export const PROMPTS_LIST_CHANGED = 'notifications/prompts/list_changed';

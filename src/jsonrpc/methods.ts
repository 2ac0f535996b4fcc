/**
 * @module The two notifications the connection itself consumes: cancellation and progress. They
 * are MCP's, but they are bound to request correlation, so they live here (as vscode-jsonrpc
 * keeps `$/cancelRequest` and `$/progress` in its connection).
 */

/** `notifications/cancelled`: the sender no longer wants the response to a request. */
export const CANCELLED = 'notifications/cancelled';

/** `notifications/progress`: progress of a request that carried `_meta.progressToken`. */
export const PROGRESS = 'notifications/progress';

/**
 * @module JSON-RPC 2.0 message shapes as MCP uses them: params and results are always objects.
 */

/** A request id: a string or an integer, never null (MCP tightens JSON-RPC here). */
export type RequestId = string | number;

/** A progress token as MCP defines it (`_meta.progressToken`). */
export type ProgressToken = string | number;

/** A JSON object as it appears in params and results. */
export type JsonObject = Record<string, unknown>;

/** A request: expects exactly one response with the same id. */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: JsonObject;
}

/** A notification: no id, and the receiver never replies. */
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

/** The `error` member of a failed response. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A successful response. */
export interface JsonRpcSuccess {
  jsonrpc: '2.0';
  id: RequestId;
  result: JsonObject;
}

/**
 * A failed response. The id is null (JSON-RPC 2.0) or absent (MCP 2025-11-25) only when the
 * request's id could not be read.
 */
export interface JsonRpcFailure {
  jsonrpc: '2.0';
  id?: RequestId | null;
  error: JsonRpcErrorObject;
}

/** Either kind of response. */
export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;

/** Any single JSON-RPC message. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/**
 * @module The two error families: wire errors (numeric JSON-RPC codes, serialisable) and local
 * errors (string codes, never sent). See STYLE.md §2.6.
 */
import type { JsonRpcErrorObject } from './types.js';

/** JSON-RPC and MCP error codes that toolwire sends or understands. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /**
   * toolwire: the request was refused because too many requests are in flight on this
   * connection. JSON-RPC reserves -32000..-32099 for implementation-defined server errors.
   */
  ServerBusy: -32000,
  /** toolwire: the server is shutting down and accepts no new requests. */
  ServerShuttingDown: -32001,
  /**
   * toolwire: a rate limit or the concurrency cap refused the call; `data` is `{ retryAfterMs,
   * limit }` with `limit` one of `global`, `principal`, `tool`, `concurrency` (over Streamable
   * HTTP the answer has status 429 and `Retry-After`). Outside -32768..-32000 on purpose: MCP
   * (basic/index, 2026-07-28) closes -32000..-32019 to new codes and reserves -32020..-32099 for
   * the specification, and asks for new codes outside the JSON-RPC range; -31429 recalls 429.
   */
  RateLimited: -31429,
  /** MCP 2025-11-25: the request needs a URL-mode elicitation first. */
  UrlElicitationRequired: -32042,
  /** MCP 2026-07-28: an HTTP header disagrees with the body (`Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`). */
  HeaderMismatch: -32020,
  /** MCP 2026-07-28: the request lacks a client capability the server needs to serve it. */
  MissingRequiredClientCapability: -32021,
  /** MCP 2026-07-28: the request's protocol version is one the server does not serve. */
  UnsupportedProtocolVersion: -32022,
} as const;

/** One of the {@link ErrorCode} values, or any other integer a peer sent. */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode] | (number & {});

/** An error that crosses the wire as a JSON-RPC error object. */
export class RpcError extends Error {
  override readonly name = 'RpcError';
  readonly code: number;
  readonly data: unknown;

  constructor(code: ErrorCodeValue, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }

  /** The JSON-RPC `error` member for this error. */
  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  /** Builds an RpcError from an `error` member received from a peer. */
  static fromWire(error: JsonRpcErrorObject): RpcError {
    return new RpcError(error.code, error.message, error.data);
  }
}

/** String codes of errors that stay on this side of the wire. */
export type LocalErrorCode =
  | 'timeout'
  | 'aborted'
  | 'closed'
  | 'not-connected'
  | 'send-failed'
  | 'message-too-large'
  | 'invalid-response'
  | 'unsupported-version'
  | 'capability-missing'
  | 'invalid-tool'
  | 'invalid-output'
  | 'unsupported-schema'
  | 'pagination-loop'
  | 'denied'
  | 'authorization'
  | 'transport';

/** An error raised locally (a timeout, a closed connection...), never sent to a peer. */
export class LocalError extends Error {
  override readonly name = 'LocalError';
  readonly code: LocalErrorCode;

  constructor(code: LocalErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * Turns anything a handler threw into a wire error that is safe to send: RpcErrors pass through;
 * everything else becomes -32603 with a generic message, keeping the original as `cause` (never
 * serialised), so no stack trace or secret leaves the process.
 */
export function toRpcError(thrown: unknown): RpcError {
  if (thrown instanceof RpcError) return thrown;
  const error = new RpcError(ErrorCode.InternalError, 'Internal error');
  error.cause = thrown;
  return error;
}

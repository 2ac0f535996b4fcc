/**
 * @module How a finished request is recorded: `error.type`, `rpc.response.status_code` and the
 * span status, the same for the span and the histogram, by the convention's rules for each side.
 * A server does not count the caller's mistakes (the codes in {@link CALLER_FAULT_CODES}) as its
 * own errors; a client counts every JSON-RPC error. A tool's `isError` result is `tool_error`.
 */
import { SpanStatusCode, type Attributes, type Span } from '@opentelemetry/api';
import { ErrorCode, LocalError, RpcError } from '../jsonrpc/errors.js';
import { TOOLS_CALL } from '../jsonrpc/methods.js';
import type { JsonObject } from '../jsonrpc/types.js';
import { ATTR, CALLER_FAULT_CODES, isToolError, OTHER_ERROR, TOOL_ERROR } from './semconv.js';

/** What one request ended with. */
export interface Outcome {
  /** `error.type`; undefined when the request did not fail. */
  readonly errorType: string | undefined;
  /** `rpc.response.status_code`: the JSON-RPC error code of the response, when there was one. */
  readonly statusCode: string | undefined;
  /** The span status description (the JSON-RPC error's message). */
  readonly description: string | undefined;
  /**
   * An exception the server answers -32603 without details: the operator's trace keeps it (as
   * an `exception` event) where the client is told nothing.
   */
  readonly exception?: unknown;
}

/** A request answered with a result, a notification sent or handled. */
export const SUCCESS: Outcome = {
  errorType: undefined,
  statusCode: undefined,
  description: undefined,
};
const TOOL_FAILED: Outcome = {
  errorType: TOOL_ERROR,
  statusCode: undefined,
  description: undefined,
};

/** The outcome of a request answered with a result. */
export function resultOutcome(method: string, result: JsonObject): Outcome {
  return isToolError(method, result) ? TOOL_FAILED : SUCCESS;
}

/**
 * The outcome of a request a server middleware saw fail. An `RpcError` is the response's error;
 * a `ToolError` of `tools/call` becomes an `isError` result; anything else is answered -32603.
 */
export function serverErrorOutcome(method: string, error: unknown): Outcome {
  if (error instanceof RpcError) {
    const code = String(error.code);
    return CALLER_FAULT_CODES.has(error.code)
      ? { errorType: undefined, statusCode: code, description: undefined }
      : { errorType: code, statusCode: code, description: error.message };
  }
  if (method === TOOLS_CALL && error instanceof Error && error.name === 'ToolError')
    return TOOL_FAILED;
  const code = String(ErrorCode.InternalError);
  return { errorType: code, statusCode: code, description: 'Internal error', exception: error };
}

/**
 * The outcome of a request a client saw fail: an `RpcError` by its code (every code is an
 * error here), a `LocalError` by its code (`timeout`, `aborted`, `closed`...), anything else by
 * its error name, else `_OTHER`.
 */
export function clientErrorOutcome(error: unknown): Outcome {
  if (error instanceof RpcError) {
    const code = String(error.code);
    return { errorType: code, statusCode: code, description: error.message };
  }
  if (error instanceof LocalError)
    return { errorType: error.code, statusCode: undefined, description: error.message };
  if (error instanceof Error)
    return {
      errorType: error.name || OTHER_ERROR,
      statusCode: undefined,
      description: error.message,
    };
  return { errorType: OTHER_ERROR, statusCode: undefined, description: undefined };
}

/** Writes the outcome to the span and to the histogram's attributes. */
export function recordOutcome(outcome: Outcome, span: Span, metricAttributes: Attributes): void {
  if (outcome.statusCode !== undefined) {
    span.setAttribute(ATTR.responseStatusCode, outcome.statusCode);
    metricAttributes[ATTR.responseStatusCode] = outcome.statusCode;
  }
  if (outcome.errorType === undefined) return; // success leaves the status unset
  span.setAttribute(ATTR.errorType, outcome.errorType);
  if (outcome.exception !== undefined) {
    const { exception } = outcome;
    span.recordException(
      exception instanceof Error
        ? exception
        : { message: typeof exception === 'string' ? exception : `a thrown ${typeof exception}` },
    );
  }
  metricAttributes[ATTR.errorType] = outcome.errorType;
  span.setStatus(
    outcome.description === undefined
      ? { code: SpanStatusCode.ERROR }
      : { code: SpanStatusCode.ERROR, message: outcome.description },
  );
}

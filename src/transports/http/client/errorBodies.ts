/**
 * @module What the body of a failing HTTP answer says in JSON-RPC terms: a call refused by a rate
 * limit (429), or an error response to one of the POST's own requests (a stateless server answers
 * some errors with an HTTP failure status). Such an answer is delivered as the request's result
 * rather than thrown as an HTTP failure.
 */
import { ErrorCode } from '../../../jsonrpc/errors.js';
import { isPlainObject, isRequestId } from '../../../jsonrpc/guards.js';
import type { RequestId } from '../../../jsonrpc/types.js';

/** True for a body holding a JSON-RPC error response refusing a call over a rate limit. */
export function isRateLimitRefusal(text: string): boolean {
  if (!text.includes(String(ErrorCode.RateLimited))) return false;
  try {
    const parsed = JSON.parse(text) as unknown;
    return (
      isPlainObject(parsed) &&
      isPlainObject(parsed['error']) &&
      parsed['error']['code'] === ErrorCode.RateLimited
    );
  } catch {
    return false;
  }
}

/**
 * True for a body holding a JSON-RPC error response to one of `ids`; with `codes`, only one of
 * those codes.
 */
export function isErrorFor(
  text: string,
  ids: readonly RequestId[],
  codes?: readonly number[],
): boolean {
  try {
    const parsed = JSON.parse(text) as unknown;
    return (
      isPlainObject(parsed) &&
      isPlainObject(parsed['error']) &&
      typeof parsed['error']['code'] === 'number' &&
      (codes === undefined || codes.includes(parsed['error']['code'])) &&
      isRequestId(parsed['id']) &&
      ids.includes(parsed['id'])
    );
  } catch {
    return false;
  }
}

/**
 * The errors a 2026-07-28 server answers a request it refuses with (-32020, -32021, -32022,
 * with HTTP 400): to a 2025 client's `initialize` too, where they mean "a modern server", not
 * "no Streamable HTTP here" (the transport page: fall back to HTTP+SSE only without one).
 */
export const MODERN_REFUSALS: readonly number[] = [
  ErrorCode.HeaderMismatch,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.UnsupportedProtocolVersion,
];

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

/** True for a body holding a JSON-RPC error response to one of `ids`. */
export function isErrorFor(text: string, ids: readonly RequestId[]): boolean {
  try {
    const parsed = JSON.parse(text) as unknown;
    return (
      isPlainObject(parsed) &&
      isPlainObject(parsed['error']) &&
      typeof parsed['error']['code'] === 'number' &&
      isRequestId(parsed['id']) &&
      ids.includes(parsed['id'])
    );
  } catch {
    return false;
  }
}

/**
 * @module The one table that maps what went wrong with an HTTP request to its status code and a
 * JSON-RPC error body without id (STYLE.md §2.6, like tRPC's getHTTPStatusCode).
 */
import { ErrorCode, type ErrorCodeValue } from '../../../jsonrpc/errors.js';
import { jsonReply, NO_HEADERS, type HttpReply } from './exchange.js';

/** Everything the HTTP transports refuse, by name (the keys of {@link HTTP_FAILURES}). */
export type HttpFailure =
  | 'parse'
  | 'invalidMessage'
  | 'missingSession'
  | 'badProtocolVersion'
  | 'badLastEventId'
  | 'badHost'
  | 'alreadyInitialized'
  | 'badAuthorization'
  | 'unauthorized'
  | 'forbidden'
  | 'insufficientScope'
  | 'unknownSession'
  | 'notFound'
  | 'methodNotAllowed'
  | 'notAcceptable'
  | 'conflict'
  | 'tooLarge'
  | 'unsupportedMediaType'
  | 'busy'
  | 'tooManyCallerSessions'
  | 'tooManySessions'
  | 'shuttingDown'
  | 'storeUnavailable'
  | 'authUnavailable';

/** Everything the HTTP transports refuse, by name: the status and the JSON-RPC error code. */
export const HTTP_FAILURES: Readonly<
  Record<HttpFailure, { readonly status: number; readonly code: ErrorCodeValue }>
> = {
  parse: { status: 400, code: ErrorCode.ParseError },
  invalidMessage: { status: 400, code: ErrorCode.InvalidRequest },
  missingSession: { status: 400, code: ErrorCode.InvalidRequest },
  badProtocolVersion: { status: 400, code: ErrorCode.InvalidRequest },
  badLastEventId: { status: 400, code: ErrorCode.InvalidRequest },
  badHost: { status: 400, code: ErrorCode.InvalidRequest },
  alreadyInitialized: { status: 400, code: ErrorCode.InvalidRequest },
  badAuthorization: { status: 400, code: ErrorCode.InvalidRequest },
  unauthorized: { status: 401, code: ErrorCode.InvalidRequest },
  forbidden: { status: 403, code: ErrorCode.InvalidRequest },
  insufficientScope: { status: 403, code: ErrorCode.InvalidRequest },
  unknownSession: { status: 404, code: ErrorCode.InvalidRequest },
  notFound: { status: 404, code: ErrorCode.InvalidRequest },
  methodNotAllowed: { status: 405, code: ErrorCode.InvalidRequest },
  notAcceptable: { status: 406, code: ErrorCode.InvalidRequest },
  conflict: { status: 409, code: ErrorCode.InvalidRequest },
  tooLarge: { status: 413, code: ErrorCode.InvalidRequest },
  unsupportedMediaType: { status: 415, code: ErrorCode.InvalidRequest },
  busy: { status: 429, code: ErrorCode.ServerBusy },
  tooManyCallerSessions: { status: 429, code: ErrorCode.ServerBusy },
  tooManySessions: { status: 503, code: ErrorCode.ServerBusy },
  shuttingDown: { status: 503, code: ErrorCode.ServerShuttingDown },
  storeUnavailable: { status: 503, code: ErrorCode.InternalError },
  authUnavailable: { status: 503, code: ErrorCode.InternalError },
};

/** A reply carrying a JSON-RPC error without id, with the status the table gives. */
export function failureReply(
  failure: HttpFailure,
  message: string,
  headers: Readonly<Record<string, string>> = NO_HEADERS,
): HttpReply {
  const { status, code } = HTTP_FAILURES[failure];
  return jsonReply(status, { jsonrpc: '2.0', error: { code, message } }, headers);
}

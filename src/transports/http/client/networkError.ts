/**
 * @module Naming what failed when a fetch cannot reach a server: the URL and the system's error
 * code. Node's fetch (undici) throws a bare "fetch failed" and keeps the errno in `error.cause`
 * (`code`, `syscall`, `hostname`; an AggregateError when several addresses were tried).
 */
import { LocalError } from '../../../jsonrpc/errors.js';

/**
 * Codes that mean nobody is there to answer: nothing listens on the port, the name does not
 * resolve, the host or network cannot be reached. Retrying on the reconnection schedule will not
 * change that within seconds, so a lost stream fails at once (TLS failures are added by pattern).
 */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);

/** OpenSSL's certificate verification codes, and Node's TLS and SSL ones. */
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/;

/** A request that could not reach the server at all (no HTTP status came back). */
export class ConnectionError extends LocalError {
  /** The URL the request went to. */
  readonly url: string;
  /** The system's code (`ECONNREFUSED`, `ENOTFOUND`, `DEPTH_ZERO_SELF_SIGNED_CERT`...), if known. */
  readonly errno: string | undefined;

  constructor(
    message: string,
    details: { url: string; errno: string | undefined; cause: unknown },
  ) {
    super('transport', message, { cause: details.cause });
    this.url = details.url;
    this.errno = details.errno;
  }

  /**
   * True when the server is not there (refused, unknown name, unreachable, TLS refused): unlike a
   * connection reset mid-stream, retrying within seconds will not help.
   */
  get unreachable(): boolean {
    return this.errno !== undefined && (UNREACHABLE.has(this.errno) || TLS_CODE.test(this.errno));
  }
}

interface Cause {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** The innermost error carrying a string `code`, following `cause` and AggregateError members. */
function rootCause(error: unknown, depth = 0): { code?: string; message: string } | undefined {
  if (typeof error !== 'object' || error === null || depth > 8) return undefined;
  const e = error as Cause;
  const inner =
    rootCause(e.cause, depth + 1) ??
    (Array.isArray(e.errors) ? rootCause(e.errors[0], depth + 1) : undefined);
  if (inner?.code !== undefined) return inner;
  const message = typeof e.message === 'string' ? e.message : 'the request failed';
  if (typeof e.code === 'string') return { code: e.code, message };
  return inner ?? { message };
}

/**
 * Wraps a fetch failure as a {@link ConnectionError} naming the URL and the code, e.g.
 * `POST http://127.0.0.1:8080/mcp: connect ECONNREFUSED 127.0.0.1:8080`. An abort (the transport
 * closing) is returned unchanged.
 */
export function connectionError(method: string, url: URL, error: unknown): unknown {
  if (error instanceof ConnectionError) return error;
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'))
    return error;
  const root = rootCause(error) ?? { message: 'the request failed' };
  // OpenSSL's text names its source file and line: keep only the reason.
  root.message = (/SSL routines:[^:]*:([^:]+):/.exec(root.message)?.[1] ?? root.message).trim();
  const code = root.code;
  const detail =
    code === undefined || root.message.includes(code) ? root.message : `${root.message} (${code})`;
  return new ConnectionError(`${method} ${url.href}: ${detail}`, {
    url: url.href,
    errno: code,
    cause: error,
  });
}

/** Why a stream's requests fail once reconnecting gave up: the URL and the last failure. */
export function lostStreamError(
  url: URL,
  attempts: number,
  last: { error: Error } | undefined,
): LocalError {
  const why = last ? `: ${last.error.message}` : '';
  const message = `The response stream from ${url.href} was lost and ${attempts} reconnection${attempts === 1 ? '' : 's'} failed${why}`;
  return last?.error instanceof ConnectionError
    ? new ConnectionError(message, { url: url.href, errno: last.error.errno, cause: last.error })
    : new LocalError('transport', message, last ? { cause: last.error } : undefined);
}

/**
 * @module The local errors a connection fails its own requests with: the connection closed (and
 * why), a request aborted before it was sent, a request the transport could not send.
 */
import { LocalError } from './errors.js';

/**
 * The error requests fail with when the transport closed: its own `closed` LocalError (a stdio
 * server's exit, with the facts), another reason wrapped, or a plain "Connection closed".
 */
export function closedBecause(reason: Error | undefined): LocalError {
  if (reason instanceof LocalError && reason.code === 'closed') return reason;
  if (reason)
    return new LocalError('closed', `Connection closed: ${reason.message}`, { cause: reason });
  return new LocalError('closed', 'Connection closed');
}

/** A request whose signal was aborted before it was sent. */
export function abortedBeforeSending(method: string, signal: AbortSignal): LocalError {
  return new LocalError('aborted', `Request ${method} was aborted`, { cause: signal.reason });
}

/**
 * What a request fails with when the transport cannot send it. A refused authorization is the
 * caller's to act on (log in again...): passed on as is.
 */
export function sendFailure(method: string, error: unknown): LocalError {
  if (error instanceof LocalError && error.code === 'authorization') return error;
  return new LocalError(
    'send-failed',
    `Could not send ${method}: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error },
  );
}

/**
 * @module The error of an HTTP client transport's request that the server answered with a failing
 * status (and no JSON-RPC answer): the status is kept for the caller to branch on.
 */
import { LocalError } from '../../../jsonrpc/errors.js';

/** An HTTP failure of a POST, with its status. */
export class HttpStatusError extends LocalError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super('transport', message);
  }
}

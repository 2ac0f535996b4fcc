/**
 * @module Opaque `tools/list` cursors. A cursor names the registration sequence number of the last
 * tool sent; the next page starts after it. Tools keep their number for life and new tools get
 * higher ones, so walking the pages while tools come and go never repeats or skips a tool that
 * existed throughout.
 */
import { ErrorCode, RpcError } from '../../jsonrpc/errors.js';

const PREFIX = 'tw1.';

/** Encodes the position after `seq`. */
export function encodeCursor(seq: number): string {
  return PREFIX + seq.toString(36);
}

/** Decodes a cursor; -32602 when it is not one this server issued. */
export function decodeCursor(cursor: string, highestIssued: number): number {
  if (cursor.startsWith(PREFIX)) {
    const digits = cursor.slice(PREFIX.length);
    if (/^[0-9a-z]{1,11}$/.test(digits)) {
      const seq = parseInt(digits, 36);
      if (seq >= 1 && seq <= highestIssued) return seq;
    }
  }
  throw new RpcError(ErrorCode.InvalidParams, 'Invalid cursor');
}

/**
 * @module Decoding one message's text: a nesting-depth guard that runs before `JSON.parse`, and a
 * cheap look at the head of a message that could not be decoded (to address the error to it).
 */
import { ErrorCode, RpcError } from './errors.js';
import type { RequestId } from './types.js';

/** Default maximum nesting depth of one message (RELIABILITY.md). */
export const DEFAULT_MAX_DEPTH = 64;

/** What a transport learned about a message it could not decode, from its first bytes. */
export interface EnvelopeHint {
  /** The top-level `id`, when it could be read. */
  id?: RequestId;
  /** Whether a top-level `method` member was seen (a request rather than a response). */
  hasMethod: boolean;
}

/** The outcome of {@link decodeMessage}. */
export type Decoded =
  { ok: true; value: unknown } | { ok: false; error: RpcError; hint: EnvelopeHint };

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/** Index just past the closing quote of the string that opens at `start`, or -1. */
function skipString(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const q = text.indexOf('"', i);
    if (q < 0) return -1;
    let backslashes = 0;
    for (let j = q - 1; j > start && text.charCodeAt(j) === BACKSLASH; j--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    i = q + 1;
  }
}

/**
 * True when the JSON text nests objects and arrays deeper than `limit`. Strings are skipped with
 * `indexOf`, so the cost is close to one pass over the structural characters only.
 */
export function exceedsDepth(text: string, limit: number): boolean {
  // Nesting d levels takes at least 2d bracket characters, so a short text cannot be too deep.
  if (text.length < 2 * (limit + 1)) return false;
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = skipString(text, i);
      if (end < 0) return false; // unterminated: JSON.parse reports it
      i = end - 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** Decodes one message's text, refusing it when it nests deeper than `maxDepth`. */
export function decodeMessage(text: string, maxDepth: number = DEFAULT_MAX_DEPTH): Decoded {
  if (exceedsDepth(text, maxDepth)) {
    return {
      ok: false,
      error: new RpcError(ErrorCode.InvalidRequest, `Message nests deeper than ${maxDepth} levels`),
      hint: peekEnvelope(text),
    };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return {
      ok: false,
      error: new RpcError(ErrorCode.ParseError, 'Parse error: the message is not valid JSON'),
      hint: { hasMethod: false },
    };
  }
}

const ID_VALUE = /^\s*:\s*(-?\d{1,15}(?![\d.eE])|"(?:[^"\\]|\\.){0,256}")/;

/**
 * Reads the top-level `id` and whether a top-level `method` exists from the first bytes of a
 * message (all a transport keeps of an oversized one). Members nested deeper are ignored, so a
 * nested `"id"` can never be mistaken for the envelope's.
 */
export function peekEnvelope(head: string): EnvelopeHint {
  const hint: EnvelopeHint = { hasMethod: false };
  let depth = 0;
  for (let i = 0; i < head.length; i++) {
    const c = head.charCodeAt(i);
    if (c === QUOTE) {
      const end = skipString(head, i);
      if (end < 0) break;
      if (depth === 1) {
        const key = head.slice(i + 1, end - 1);
        if (key === 'method') hint.hasMethod = true;
        else if (key === 'id' && hint.id === undefined) {
          const m = ID_VALUE.exec(head.slice(end, end + 300));
          if (m?.[1] !== undefined) {
            const raw = m[1];
            hint.id = raw.startsWith('"') ? (JSON.parse(raw) as string) : Number(raw);
          }
        }
      }
      i = end - 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return hint;
}

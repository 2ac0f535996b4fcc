/**
 * @module Reading `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP date. A server that is
 * busy (429) or briefly unable to serve (503) says when to come back; a client that honours it
 * gets its request served instead of an error.
 */

/** The longest wait honoured: a server asking for more is treated as not coming back soon. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * The delay a `Retry-After` value asks for, in milliseconds; undefined when absent, malformed, or
 * longer than {@link MAX_RETRY_AFTER_MS}.
 */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    // An HTTP date always names GMT; anything else (a negative or fractional number) is malformed.
    if (!/GMT$/.test(text)) return undefined;
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    ms = Math.max(0, at - now);
  }
  return ms <= MAX_RETRY_AFTER_MS ? ms : undefined;
}

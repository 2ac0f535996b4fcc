/**
 * @module Header values of the stateless revision's HTTP requests (2026-07-28): plain visible
 * ASCII as it is; anything else (non-ASCII, control characters, leading or trailing whitespace,
 * or a value that itself looks encoded) as `=?base64?<base64 of the UTF-8 bytes>?=`.
 */

/** RFC 9110 field-value characters as the transport page restricts them. */
const HEADER_SAFE = /^[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?$/;

/** A value as a header carries it. */
export function headerValue(value: string): string {
  if (HEADER_SAFE.test(value) && !(value.startsWith('=?base64?') && value.endsWith('?=')))
    return value;
  let binary = '';
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}

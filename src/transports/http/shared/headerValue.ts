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

/**
 * A header value as the client meant it: the text of a `=?base64?…?=` value (UTF-8), the value
 * itself otherwise; undefined for a sentinel whose content is not base64 of UTF-8.
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (!(value.startsWith('=?base64?') && value.endsWith('?=') && value.length >= 11)) return value;
  const encoded = value.slice(9, -2);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return undefined;
  const binary = atob(encoded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * @module Bearer tokens on the wire (RFC 6750): reading the one token of an `Authorization`
 * header, and writing `WWW-Authenticate: Bearer` challenges with correctly quoted parameters.
 */

/** What an `Authorization` header holds for a resource server that takes Bearer tokens only. */
export type BearerCredential =
  /** The token (`b64token` syntax, RFC 6750 §2.1). */
  | { readonly kind: 'token'; readonly token: string }
  /** No header, or another scheme (Basic...): the caller presented no Bearer token. */
  | { readonly kind: 'none' }
  /** A Bearer header that is not one well-formed token (empty, two tokens, two headers...). */
  | { readonly kind: 'malformed'; readonly why: string };

const NONE: BearerCredential = Object.freeze({ kind: 'none' });

/** RFC 6750 §2.1 `b64token`: 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=". */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * The credential of an `Authorization` header value (`null` when absent). The scheme is matched
 * without regard to case (RFC 9110 §11.1); a header repeated (joined with ", " by the runtime) or
 * holding anything but one token is malformed.
 */
export function bearerCredential(header: string | null): BearerCredential {
  if (header === null) return NONE;
  const value = header.trim();
  const space = value.indexOf(' ');
  const scheme = space < 0 ? value : value.slice(0, space);
  if (scheme.toLowerCase() !== 'bearer') return value.includes(',') ? malformed(header) : NONE;
  const token = space < 0 ? '' : value.slice(space + 1).trim();
  if (token === '') return { kind: 'malformed', why: 'The Bearer credential holds no token' };
  if (!B64TOKEN.test(token)) return malformed(header);
  return { kind: 'token', token };
}

function malformed(header: string): BearerCredential {
  return {
    kind: 'malformed',
    why: header.includes(',')
      ? 'Send exactly one Authorization header with one Bearer token'
      : 'The Bearer token is not one token of the allowed characters (RFC 6750 section 2.1)',
  };
}

/**
 * The value of an `error_description`: RFC 6750 §3 allows printable ASCII without `"` and `\`;
 * anything else (a line break from a custom verifier, say) becomes a space, and the text is cut
 * to 200 characters, so no verifier can break or inflate the header.
 */
export function safeDescription(text: string): string {
  const cleaned = text.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, ' ').trim();
  return cleaned.length > 200 ? `${cleaned.slice(0, 197)}...` : cleaned;
}

/** RFC 9110 §5.6.4 quoted-string: `\` and `"` escaped with a backslash. */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * A `WWW-Authenticate` value for the Bearer scheme with these parameters in order, each value
 * quoted; parameters whose value is undefined or empty are left out.
 */
export function bearerChallenge(
  params: ReadonlyArray<readonly [string, string | undefined]>,
): string {
  const parts: string[] = [];
  for (const [name, value] of params)
    if (value !== undefined && value !== '') parts.push(`${name}=${quoted(value)}`);
  return parts.length === 0 ? 'Bearer' : `Bearer ${parts.join(', ')}`;
}

/**
 * @module Which URIs a tool result may carry in `resource_link.uri`, an embedded
 * `resource.uri` and a resource link's `icons[].src`.
 *
 * A URI passes when it starts with an RFC 3986 scheme at its very first character, holds no
 * control, bidi or tag character anywhere (browsers' URL parsers drop leading controls and spaces
 * and every tab and newline, so `" java\tscript:"` would run as `javascript:`; here such a URI is
 * simply refused), and its scheme (compared case-insensitively) is allowed. Some URIs are never
 * allowed, whatever the configuration says short of turning the check off: `javascript:` and
 * `vbscript:` (script run by whoever opens the link), and `data:` URIs whose media type a
 * browser may render as a document able to run script (anything but plain text, JSON, CSV,
 * Markdown, octet streams, audio, video and raster images; `image/svg+xml` included).
 * Checking a URI against a list allocates nothing.
 */

/** A custom URI check: true lets the URI through. `scheme` is lower-case, without the colon. */
export type UriCheck = (scheme: string, uri: string) => boolean;

/** Schemes that run script when a URI is opened: refused whatever the allow-list says. */
export const SCRIPT_SCHEMES: readonly string[] = ['javascript', 'vbscript'];

/**
 * Media types a `data:` URI may have, matched right after `data:` (sticky) and up to its `;` or
 * `,`: an empty one (plain text), or one of the list; `audio/*` and `video/*` too.
 */
const SAFE_DATA_TYPE =
  /(?:text\/plain|text\/csv|text\/markdown|application\/json|application\/octet-stream|image\/(?:png|jpeg|gif|webp|avif|bmp)|(?:audio|video)\/[a-z0-9.+-]+)?(?=[;,]|$)/iy;

/** Whether `uri` holds a control character (tab and newline included), bidi or tag character. */
function hasUnsafeChar(uri: string): boolean {
  for (let i = 0; i < uri.length; i++) {
    const c = uri.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) continue;
    if (c <= 0x9f) return true; // C0, DEL, C1
    if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) return true;
    if (c === 0xdb40 && (uri.charCodeAt(i + 1) & 0xff80) === 0xdc00) return true; // U+E0000–U+E007F
  }
  return false;
}

function isAsciiLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

/** The length of the scheme `uri` starts with (RFC 3986: ALPHA *( ALPHA / DIGIT / + - . ) ":"), or 0. */
function schemeLength(uri: string): number {
  if (!isAsciiLetter(uri.charCodeAt(0))) return 0;
  for (let i = 1; i < uri.length; i++) {
    const c = uri.charCodeAt(i);
    if (c === 0x3a) return i;
    const ok =
      isAsciiLetter(c) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e;
    if (!ok) return 0;
  }
  return 0;
}

/** Whether `uri` has the scheme `scheme` (lower-case ASCII) of length `length`. */
function hasScheme(uri: string, length: number, scheme: string): boolean {
  if (length !== scheme.length) return false;
  for (let i = 0; i < length; i++) {
    // ASCII letters: setting bit 0x20 lower-cases; digits and + - . already have it set.
    if ((uri.charCodeAt(i) | 0x20) !== scheme.charCodeAt(i)) return false;
  }
  return true;
}

function dataUriProblem(uri: string): string | undefined {
  SAFE_DATA_TYPE.lastIndex = 5; // after "data:"
  if (SAFE_DATA_TYPE.test(uri)) return undefined;
  const type = /^[^;,]*/.exec(uri.slice(5))?.[0] ?? '';
  return `a data: URI of type "${type.slice(0, 60).toLowerCase()}" could run script`;
}

/** Why `scheme` may not be listed as allowed, or undefined. */
export function schemeEntryProblem(scheme: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*$/.test(scheme)) return `"${scheme}" is not a URI scheme`;
  if (SCRIPT_SCHEMES.includes(scheme)) return `the "${scheme}:" scheme runs script`;
  return undefined;
}

/**
 * Why `uri` is refused, or undefined when it may be sent. `allowed` is a list of lower-case
 * schemes (checked by {@link schemeEntryProblem}) or a custom check.
 */
export function uriProblem(uri: string, allowed: readonly string[] | UriCheck): string | undefined {
  const length = schemeLength(uri);
  if (length === 0) return 'the URI does not start with a scheme';
  if (hasUnsafeChar(uri)) return 'the URI contains control or bidi characters';
  if (typeof allowed === 'function') {
    const scheme = uri.slice(0, length).toLowerCase();
    if (SCRIPT_SCHEMES.includes(scheme)) return `the URI scheme "${scheme}" runs script`;
    if (scheme === 'data') {
      const problem = dataUriProblem(uri);
      if (problem) return problem;
    }
    return allowed(scheme, uri) ? undefined : `the URI scheme "${scheme}" is not allowed`;
  }
  for (let i = 0; i < allowed.length; i++) {
    const scheme = allowed[i] as string;
    if (!hasScheme(uri, length, scheme)) continue;
    return scheme === 'data' ? dataUriProblem(uri) : undefined;
  }
  const shown = uri.slice(0, Math.min(length, 40)).toLowerCase();
  if (SCRIPT_SCHEMES.includes(shown)) return `the URI scheme "${shown}" runs script`;
  return `the URI scheme "${shown}" is not allowed`;
}

/** Icons must be `https:` or `data:` URIs (basic/index: Icons, security considerations). */
const ICON_SCHEMES: readonly string[] = ['https', 'data'];
// Module constants: a regular expression literal in a function is a new object per evaluation.
const DATA_URI = /^data:/i;
const DATA_IMAGE_URI = /^data:image\//i;

/** Why an icon's `src` is refused, or undefined. Only `https:` and raster-image `data:` URIs pass. */
export function iconSrcProblem(src: string): string | undefined {
  const problem = uriProblem(src, ICON_SCHEMES);
  if (problem) return problem;
  if (DATA_URI.test(src) && !DATA_IMAGE_URI.test(src)) return 'an icon data: URI must be an image';
  return undefined;
}

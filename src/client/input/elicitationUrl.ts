/**
 * @module Which URLs of a URL-mode elicitation may reach the application (and so, after the
 * user's consent, a browser): https anywhere, http only on this machine. A server cannot use the
 * request to have the client open `javascript:`, `data:` or `file:` URLs, plain http across the
 * network, or a URL whose credentials (`https://bank.example@evil.example/`) disguise its host.
 */

/** Characters that have no place in a URL as sent (they are percent-encoded in a real one). */
const INVISIBLE =
  /[\u0000-\u0020\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;

/** Hosts an `http:` URL may name: the loopback interface (the URL parser canonicalises IPv4). */
function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/** The outcome of {@link checkElicitationUrl}. */
export type ElicitationUrlCheck =
  { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly reason: string };

/**
 * Whether `raw` may be shown to the user and opened: an absolute `https:` URL, or `http:` on
 * loopback, without user name or password, without whitespace or invisible characters. The
 * accepted URL is returned parsed: its `href` is what a browser would open (an internationalised
 * host in punycode, so a look-alike host shows as such).
 */
export function checkElicitationUrl(raw: string): ElicitationUrlCheck {
  if (INVISIBLE.test(raw))
    return { ok: false, reason: 'the URL contains whitespace or invisible characters' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'the URL is not a valid absolute URL' };
  }
  if (url.username !== '' || url.password !== '')
    return { ok: false, reason: 'the URL carries a user name or password' };
  if (url.protocol === 'https:') return { ok: true, url };
  if (url.protocol === 'http:') {
    return isLoopback(url.hostname)
      ? { ok: true, url }
      : { ok: false, reason: 'an http URL is allowed only on loopback (use https)' };
  }
  return { ok: false, reason: `the scheme ${url.protocol} is not allowed (only https)` };
}

/**
 * @module Parsing the authority of a `Host` header or an `Origin` strictly (RFC 9110 §7.2:
 * `Host = uri-host [ ":" port ]`; RFC 3986 §3.2; RFC 6454 §7 for Origin), so that what is
 * compared against an allow-list is the host the client named and nothing else: no userinfo
 * (`localhost:3000@evil.com`), no path, no whitespace, no second value (duplicate headers arrive
 * joined by ", "). Host names are DNS names and IPv4 addresses (letters, digits, `-`, `.`, `_`,
 * `~`) or an IPv6 literal in brackets.
 */

/** A parsed `host[:port]`. */
export interface Authority {
  /** Lower-case, without a trailing dot; an IPv6 literal keeps its brackets: `[::1]`. */
  readonly host: string;
  /** The port given, or undefined when none was (the scheme's default applies). */
  readonly port: number | undefined;
}

const REG_NAME = /^[a-z0-9._~-]+$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** True for an IPv6 address in text form (RFC 4291 §2.2), without zone. */
export function isIpv6(text: string): boolean {
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const parts = halves.map((h) => (h === '' ? [] : h.split(':')));
  const all = parts.flat();
  let groups = all.length;
  const last = all[all.length - 1];
  if (last !== undefined && last.includes('.')) {
    // A trailing dotted IPv4 address stands for the last two groups.
    if (!IPV4.test(last)) return false;
    all.pop();
    groups += 1;
  }
  if (!all.every((g) => HEX_GROUP.test(g))) return false;
  return halves.length === 2 ? groups <= 7 : groups === 8;
}

/** Parses `host[:port]`; undefined when it is not exactly one well-formed authority. */
export function parseAuthority(text: string): Authority | undefined {
  const lower = text.toLowerCase();
  let host: string;
  let rest: string;
  if (lower.startsWith('[')) {
    const end = lower.indexOf(']');
    if (end < 0 || !isIpv6(lower.slice(1, end))) return undefined;
    host = lower.slice(0, end + 1);
    rest = lower.slice(end + 1);
  } else {
    const colon = lower.indexOf(':');
    host = colon < 0 ? lower : lower.slice(0, colon);
    rest = colon < 0 ? '' : lower.slice(colon);
    if (!REG_NAME.test(host)) return undefined;
    // `localhost.` is the fully qualified spelling of `localhost`: one name, not two.
    if (host.endsWith('.') && host.length > 1) host = host.slice(0, -1);
    if (host.startsWith('.') || host.includes('..')) return undefined;
  }
  if (rest === '' || rest === ':') return { host, port: undefined };
  if (!/^:\d{1,5}$/.test(rest)) return undefined;
  const port = Number(rest.slice(1));
  return port <= 65535 ? { host, port } : undefined;
}

/** A parsed origin: scheme and authority (RFC 6454 serialisation, no path). */
export interface Origin extends Authority {
  readonly scheme: string;
}

const DEFAULT_PORTS: Readonly<Record<string, number>> = { http: 80, https: 443, ws: 80, wss: 443 };

/** The port a scheme implies when none is given (undefined for schemes without one). */
export function defaultPort(scheme: string): number | undefined {
  return DEFAULT_PORTS[scheme];
}

/** Parses `scheme://host[:port]` (a trailing `/` is tolerated); undefined otherwise. */
export function parseOrigin(text: string): Origin | undefined {
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/(.*?)\/?$/.exec(text);
  if (!match) return undefined;
  const scheme = (match[1] as string).toLowerCase();
  const authority = parseAuthority(match[2] as string);
  if (!authority) return undefined;
  // The default port, given or not, is the same origin.
  const port = authority.port === defaultPort(scheme) ? undefined : authority.port;
  return { scheme, host: authority.host, port };
}

/** The canonical text of an origin: lower case, the scheme's default port left out. */
export function originKey(origin: Origin): string {
  return `${origin.scheme}://${origin.host}${origin.port === undefined ? '' : `:${origin.port}`}`;
}

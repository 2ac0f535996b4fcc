/**
 * @module Checks every HTTP request passes before its body is read: Host and Origin against DNS
 * rebinding, Accept, Content-Type and the MCP-Protocol-Version header.
 */

/** DNS-rebinding protection settings. */
export interface OriginPolicy {
  /**
   * Host names (without port) the server answers to. Default: loopback names only (`localhost`,
   * `127.0.0.1`, `[::1]`), right for the default bind address 127.0.0.1. `false` turns the Host
   * check off (behind a proxy that already checks it).
   */
  allowedHosts?: readonly string[] | false;
  /**
   * Origins (`scheme://host[:port]`) a browser may call from. Default: origins whose host is an
   * allowed host. A request without Origin (not from a browser) is not affected.
   */
  allowedOrigins?: readonly string[];
}

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]', '::1'];

/** The host name of a Host header value, lower-cased, without port. */
export function hostnameOf(hostHeader: string): string {
  const host = hostHeader.trim().toLowerCase();
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end < 0 ? host : host.slice(0, end + 1);
  }
  const colon = host.indexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

/**
 * Why Host or Origin is refused, or undefined when both pass. `urlHost` stands in for a missing
 * Host header (some runtimes only put it in the URL).
 */
export function originProblem(
  headers: Headers,
  policy: OriginPolicy,
  urlHost?: string,
): string | undefined {
  const allowedHosts = policy.allowedHosts === undefined ? LOOPBACK : policy.allowedHosts;
  if (allowedHosts !== false) {
    const host = headers.get('host') ?? urlHost ?? null;
    if (host === null) return 'Missing Host header';
    if (!allowedHosts.map((h) => h.toLowerCase()).includes(hostnameOf(host)))
      return `Host ${JSON.stringify(host)} is not allowed`;
  }
  const origin = headers.get('origin');
  if (origin === null) return undefined;
  if (policy.allowedOrigins?.includes(origin)) return undefined;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return `Origin ${JSON.stringify(origin)} is not allowed`;
  }
  const hosts = allowedHosts === false ? [] : allowedHosts;
  if (
    policy.allowedOrigins === undefined &&
    hosts.map((h) => h.toLowerCase()).includes(hostnameOf(originHost))
  )
    return undefined;
  return `Origin ${JSON.stringify(origin)} is not allowed`;
}

/** The media types an Accept header admits (parameters dropped, lower-cased). */
function acceptedTypes(headers: Headers): string[] {
  const accept = headers.get('accept');
  if (accept === null) return [];
  return accept.split(',').map((part) => (part.split(';')[0] ?? '').trim().toLowerCase());
}

function admits(types: readonly string[], type: string): boolean {
  const major = type.slice(0, type.indexOf('/'));
  return types.some((t) => t === type || t === '*/*' || t === `${major}/*`);
}

/** True when Accept admits both JSON and SSE (a POST must). */
export function acceptsJsonAndSse(headers: Headers): boolean {
  const types = acceptedTypes(headers);
  return admits(types, 'application/json') && admits(types, 'text/event-stream');
}

/** True when Accept admits SSE (a GET must). */
export function acceptsSse(headers: Headers): boolean {
  return admits(acceptedTypes(headers), 'text/event-stream');
}

/** True for a JSON Content-Type (any charset parameter). */
export function isJsonContentType(headers: Headers): boolean {
  const type = headers.get('content-type');
  return type !== null && (type.split(';')[0] ?? '').trim().toLowerCase() === 'application/json';
}

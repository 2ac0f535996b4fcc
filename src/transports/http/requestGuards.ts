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
  header: HeaderReader,
  policy: OriginPolicy,
  urlHost?: string,
): string | undefined {
  const allowedHosts = policy.allowedHosts === undefined ? LOOPBACK : policy.allowedHosts;
  if (allowedHosts !== false) {
    const host = header('host') ?? urlHost ?? null;
    if (host === null) return 'Missing Host header';
    if (!allowedHosts.map((h) => h.toLowerCase()).includes(hostnameOf(host)))
      return `Host ${JSON.stringify(host)} is not allowed`;
  }
  const origin = header('origin');
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

/** Reads one request header by lower-case name. */
export type HeaderReader = (name: string) => string | null;

/** The media types an Accept header admits (parameters dropped, lower-cased). */
function acceptedTypes(header: HeaderReader): string[] {
  const accept = header('accept');
  if (accept === null) return [];
  return accept.split(',').map((part) => (part.split(';')[0] ?? '').trim().toLowerCase());
}

function admits(types: readonly string[], type: string): boolean {
  const major = type.slice(0, type.indexOf('/'));
  return types.some((t) => t === type || t === '*/*' || t === `${major}/*`);
}

let lastAccept: string | null | undefined;
let lastAcceptOk = false;

/** True when Accept admits both JSON and SSE (a POST must). Clients repeat one Accept: cached. */
export function acceptsJsonAndSse(header: HeaderReader): boolean {
  const accept = header('accept');
  if (accept === lastAccept) return lastAcceptOk;
  const types = acceptedTypes(header);
  lastAccept = accept;
  lastAcceptOk = admits(types, 'application/json') && admits(types, 'text/event-stream');
  return lastAcceptOk;
}

/** True when Accept admits SSE (a GET must). */
export function acceptsSse(header: HeaderReader): boolean {
  return admits(acceptedTypes(header), 'text/event-stream');
}

/** True for a JSON Content-Type (any charset parameter). */
export function isJsonContentType(header: HeaderReader): boolean {
  const type = header('content-type');
  return type !== null && (type.split(';')[0] ?? '').trim().toLowerCase() === 'application/json';
}

/**
 * @module Checks every HTTP request passes before its body is read: Host and Origin against DNS
 * rebinding, Accept, Content-Type and the MCP-Protocol-Version header.
 */
import {
  defaultPort,
  isIpv6,
  originKey,
  parseAuthority,
  parseOrigin,
  type Authority,
} from './authority.js';

/** DNS-rebinding protection settings. */
export interface OriginPolicy {
  /**
   * Hosts the server answers to, as `name` (any port) or `name:port`. Default: loopback names
   * only (`localhost`, `127.0.0.1`, `[::1]`), right for the default bind address 127.0.0.1.
   * `false` turns the Host allow-list off (behind a proxy that already checks it); a Host header
   * that is malformed or given twice is refused in any case.
   */
  allowedHosts?: readonly string[] | false;
  /**
   * Origins (`scheme://host[:port]`) a browser may call from, compared by scheme, host and port
   * (a scheme's default port may be left out). A page of the server's own origin (the Origin
   * names the request's Host, which is allowed) is always accepted. A request without Origin
   * (not from a browser) is not affected.
   */
  allowedOrigins?: readonly string[];
}

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** Why a request's Host or Origin is refused: a malformed Host (400) or a refused one (403). */
export interface OriginRefusal {
  readonly failure: 'badHost' | 'forbidden';
  readonly message: string;
}

/** The verdict last given on one connection, and the header values it judged. */
interface ConnectionVerdict {
  host: string | null;
  origin: string | null;
  verdict: OriginRefusal | undefined;
}

/** Parses an allow-list entry; throws a TypeError naming a malformed one. */
function allowedHostOf(entry: string): Authority {
  // A bare IPv6 address (`::1`) is accepted for `[::1]`.
  const text = !entry.startsWith('[') && isIpv6(entry.toLowerCase()) ? `[${entry}]` : entry;
  const parsed = parseAuthority(text);
  if (!parsed)
    throw new TypeError(
      `origins.allowedHosts: ${JSON.stringify(entry)} is not a host name, IP address or host:port`,
    );
  return parsed;
}

function allowedOriginOf(entry: string): string {
  const parsed = parseOrigin(entry);
  if (!parsed)
    throw new TypeError(
      `origins.allowedOrigins: ${JSON.stringify(entry)} is not an origin (scheme://host[:port])`,
    );
  return originKey(parsed);
}

/** A port given explicitly, or one of the defaults that a Host without port may stand for. */
function portMatches(wanted: number | undefined, given: number | undefined): boolean {
  if (wanted === undefined) return true;
  return given === undefined ? wanted === 80 || wanted === 443 : given === wanted;
}

/**
 * The Host and Origin checks of one handler, compiled once. The Host must be one well-formed
 * `host[:port]` on the allow-list; an Origin must be listed or name the request's own Host and
 * port (see {@link OriginPolicy}).
 */
export class OriginGuard {
  private readonly hosts: readonly Authority[] | false;
  private readonly origins: ReadonlySet<string>;
  // Clients repeat one Host and Origin: the last verdicts are kept.
  private lastHost: string | undefined;
  private lastHostResult: Authority | OriginRefusal | undefined;
  /**
   * Per connection, the last verdict and the Host and Origin values it is for: a keep-alive
   * connection repeats its headers, so most requests skip the checks; one whose values differ
   * in any way is judged again. Entries go with their connections.
   */
  private readonly verdicts = new WeakMap<object, ConnectionVerdict>();

  constructor(policy: OriginPolicy) {
    const hosts = policy.allowedHosts === undefined ? LOOPBACK : policy.allowedHosts;
    this.hosts = hosts === false ? false : hosts.map(allowedHostOf);
    this.origins = new Set((policy.allowedOrigins ?? []).map(allowedOriginOf));
  }

  /**
   * Why Host or Origin is refused, or undefined when both pass. `urlHost` stands in for a missing
   * Host header (some runtimes only put it in the URL). `connection` (see HttpExchange), when
   * given, remembers the verdict for the same values on that connection.
   */
  problem(header: HeaderReader, urlHost?: string, connection?: object): OriginRefusal | undefined {
    const hostValue = header('host') ?? urlHost ?? null;
    const origin = header('origin');
    if (connection === undefined) return this.judge(hostValue, origin);
    const known = this.verdicts.get(connection);
    if (known !== undefined && known.host === hostValue && known.origin === origin)
      return known.verdict;
    const verdict = this.judge(hostValue, origin);
    if (known === undefined) this.verdicts.set(connection, { host: hostValue, origin, verdict });
    else {
      known.host = hostValue;
      known.origin = origin;
      known.verdict = verdict;
    }
    return verdict;
  }

  /** The verdict on one Host value (or its stand-in) and one Origin value. */
  private judge(hostValue: string | null, origin: string | null): OriginRefusal | undefined {
    const host = this.checkHost(hostValue);
    if (host !== undefined && 'failure' in host) return host;
    if (origin === null) return undefined;
    const parsed = parseOrigin(origin);
    if (parsed && this.origins.has(originKey(parsed))) return undefined;
    if (parsed && host && (parsed.scheme === 'http' || parsed.scheme === 'https')) {
      // Same origin: the page was served by this very host and port.
      const port = parsed.port ?? defaultPort(parsed.scheme);
      if (parsed.host === host.host && (host.port ?? port) === port) return undefined;
    }
    return { failure: 'forbidden', message: `Origin ${JSON.stringify(origin)} is not allowed` };
  }

  /** The request's Host when it is allowed; a refusal; undefined when Host is not checked. */
  private checkHost(value: string | null): Authority | OriginRefusal | undefined {
    if (value !== null && value === this.lastHost) return this.lastHostResult;
    const result = this.judgeHost(value);
    if (value !== null) {
      this.lastHost = value;
      this.lastHostResult = result;
    }
    return result;
  }

  private judgeHost(value: string | null): Authority | OriginRefusal | undefined {
    if (value === null)
      return this.hosts === false
        ? undefined
        : { failure: 'badHost', message: 'Missing Host header' };
    if (value.includes(','))
      return { failure: 'badHost', message: 'The Host header must be given once' };
    const parsed = parseAuthority(value);
    if (!parsed)
      return {
        failure: 'badHost',
        message: `Host ${JSON.stringify(value)} is not a valid host[:port]`,
      };
    if (this.hosts === false) return undefined;
    if (this.hosts.some((h) => h.host === parsed.host && portMatches(h.port, parsed.port)))
      return parsed;
    return { failure: 'forbidden', message: `Host ${JSON.stringify(value)} is not allowed` };
  }
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

let lastContentType: string | null | undefined;
let lastContentTypeOk = false;

/** True for a JSON Content-Type (any charset parameter). Clients repeat one: cached. */
export function isJsonContentType(header: HeaderReader): boolean {
  const type = header('content-type');
  if (type === lastContentType) return lastContentTypeOk;
  lastContentType = type;
  lastContentTypeOk =
    type !== null && (type.split(';')[0] ?? '').trim().toLowerCase() === 'application/json';
  return lastContentTypeOk;
}

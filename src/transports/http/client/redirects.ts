/**
 * @module Following HTTP redirects from an MCP endpoint by hand. fetch follows them by default,
 * to any origin, carrying the caller's headers: a server (or anything on its path) could send the
 * client's messages, session id and credentials elsewhere. Here a redirect is followed only when
 * the policy allows it (same origin by default), hop by hop, up to a limit; headers other than
 * the protocol's own never reach another origin; a POST is re-sent only on 307 and 308.
 */
import { LocalError } from '../../../jsonrpc/errors.js';

/**
 * Which redirects a client transport follows: `same-origin` (the default) only to the endpoint's
 * own scheme, host and port; `never` none; a function decides each hop (`from` is the URL that
 * answered 3xx, `to` where it points), and may allow another origin, which then receives only
 * the protocol's headers.
 */
export type FollowRedirects = 'same-origin' | 'never' | ((from: URL, to: URL) => boolean);

/** Redirect options shared by the HTTP client transports. */
export interface RedirectOptions {
  /** Which redirects to follow. Default `same-origin`. */
  followRedirects?: FollowRedirects;
  /** Most redirects followed for one request. Default 5. */
  maxRedirects?: number;
}

/** A redirect the client did not follow: the request failed with the 3xx that asked for it. */
export class RedirectError extends LocalError {
  /** The 3xx status (0 when the runtime hides the redirect, as fetch in a browser does). */
  readonly status: number;
  /** The URL that answered with the redirect. */
  readonly from: string;
  /** Where it pointed, when it could be read. */
  readonly to: string | undefined;

  constructor(hop: { status: number; from: string; to?: string }, why: string) {
    super(
      'transport',
      `HTTP ${hop.status} from ${hop.from}${hop.to ? ` to ${hop.to}` : ''} not followed: ${why}`,
    );
    this.status = hop.status;
    this.from = hop.from;
    this.to = hop.to;
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The protocol's own headers, kept on a hop the policy allowed to another origin (the session id
 * too: whoever answered `initialize` issued it). Authorization, cookies and the caller's own
 * headers are not among them.
 */
const PROTOCOL_HEADERS = new Set([
  'accept',
  'content-type',
  'mcp-protocol-version',
  'mcp-session-id',
  'last-event-id',
]);

function protocolHeadersOnly(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (PROTOCOL_HEADERS.has(name.toLowerCase())) kept[name] = value;
  return kept;
}

/** One request of a client transport. */
export interface RedirectableRequest {
  url: URL;
  /**
   * The origin the caller's headers belong to, and that `same-origin` keeps to. Default: the
   * URL's. Headers other than the protocol's are sent only to it.
   */
  home?: string;
  method: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

/** Why a redirect of `method` with `status` may not be followed (RFC 9110 §15.4), if so. */
function methodProblem(method: RedirectableRequest['method'], status: number): string | undefined {
  if (status === 307 || status === 308) return undefined;
  // 301/302 let a user agent turn POST into GET and 303 asks for GET: the JSON-RPC message would
  // be dropped (and a GET opens an event stream), so only 307/308 carry a POST or DELETE on.
  if (method === 'POST')
    return `a POST is re-sent only on 307 or 308 (a ${status} would drop its message)`;
  if (method === 'DELETE' && status === 303) return 'a 303 would turn DELETE into GET';
  return undefined;
}

/**
 * A `followRedirects` function's decision on one hop (given copies of the URLs); one that throws
 * refuses.
 */
export function redirectAllowed(
  policy: (from: URL, to: URL) => boolean,
  from: URL,
  to: URL,
): boolean {
  try {
    return policy(new URL(from), new URL(to)) === true;
  } catch {
    return false;
  }
}

/**
 * Sends `request` with `redirect: 'manual'` and follows what the policy allows. Returns the
 * first response that is not a followed redirect (a 3xx without `Location` is returned as is);
 * throws {@link RedirectError} for one it refuses. Network failures propagate unchanged.
 */
export async function fetchFollowing(
  fetcher: typeof fetch,
  request: RedirectableRequest,
  options: RedirectOptions,
): Promise<Response> {
  const policy = options.followRedirects ?? 'same-origin';
  const limit = options.maxRedirects ?? 5;
  const home = request.home ?? request.url.origin;
  let current = request.url;
  // Credentials and the caller's own headers stay with the home origin.
  let headers = current.origin === home ? request.headers : protocolHeadersOnly(request.headers);
  for (let hops = 0; ; hops++) {
    const response = await fetcher(current, {
      method: request.method,
      headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
      redirect: 'manual',
    });
    if (response.type === 'opaqueredirect')
      throw new RedirectError(
        { status: 0, from: current.href },
        'this runtime hides where it goes',
      );
    const location = REDIRECTS.has(response.status) ? response.headers.get('location') : null;
    if (location === null) return response;
    await response.body?.cancel().catch(() => {});
    let target: URL;
    try {
      target = new URL(location, current);
    } catch {
      throw new RedirectError(
        { status: response.status, from: current.href },
        'its Location is not a URL',
      );
    }
    const refuse = (why: string): RedirectError =>
      new RedirectError({ status: response.status, from: current.href, to: target.href }, why);
    if (hops >= limit) throw refuse(`more than ${limit} redirects`);
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      throw refuse(`the scheme ${target.protocol} is not HTTP`);
    if (policy === 'never') throw refuse('redirects are not followed (followRedirects: never)');
    if (policy === 'same-origin') {
      if (target.origin !== home)
        throw refuse(`it leads away from ${home} (followRedirects: same-origin)`);
    } else if (!redirectAllowed(policy, current, target))
      throw refuse('followRedirects refused it');
    const problem = methodProblem(request.method, response.status);
    if (problem !== undefined) throw refuse(problem);
    // Once dropped, the caller's headers are not sent again, even if the chain comes back.
    if (target.origin !== home) headers = protocolHeadersOnly(headers);
    current = target;
  }
}

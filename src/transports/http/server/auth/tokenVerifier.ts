/**
 * @module The one interface every access-token verifier implements (the JWT and introspection
 * verifiers, or a function of the application's), and what they share: the identity a token's
 * claims give, its scopes, and the audience check of RFC 8707 against the resource's canonical
 * URI.
 */
import type { Identity } from '../../../../jsonrpc/transport.js';

/** A verifier's verdict on one access token. */
export type TokenVerification =
  /** The token is valid for this resource; `identity` is its holder as the token says. */
  | { readonly ok: true; readonly identity: Identity }
  /**
   * The token is refused (401 `invalid_token`, `reason` as its `error_description`: keep it
   * short and free of secrets). `unavailable`: it could not be checked now (the key set or the
   * introspection endpoint did not answer): 503 with `Retry-After`, the client keeps its token.
   */
  | { readonly ok: false; readonly reason: string; readonly unavailable?: boolean };

/** What a verifier is told about the request besides the token. */
export interface VerifyContext {
  /** The canonical URI of this resource (the `resource` of its metadata): the expected audience. */
  readonly resource: string;
  /** Reports a fault that is the server's, not the caller's (an unreachable key set...). */
  readonly report: (error: unknown) => void;
}

/**
 * Checks an access token. Must refuse a token not issued for `context.resource` (RFC 8707): the
 * raw token never goes further than the verifier. Never throws for a bad token; a throw is taken
 * as the verifier being unavailable (503) and reported.
 */
export type TokenVerifier = (
  token: string,
  context: VerifyContext,
) => TokenVerification | Promise<TokenVerification>;

/** A refusal (shared shapes are fine: verdicts are never changed). */
export function refused(reason: string, unavailable = false): TokenVerification {
  return unavailable ? { ok: false, reason, unavailable } : { ok: false, reason };
}

/**
 * A URI in canonical form for comparison (MCP: lower-case scheme and host, which `URL` gives, no
 * default port, and no trailing slash on an empty path); a string that is not a URL (an
 * audience such as `api://my-app`... still parses; a GUID does not) is compared as it is.
 */
export function canonicalUri(uri: string): string {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return uri;
  }
  if (url.host === '' || url.hash !== '') return uri;
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

/** True when the `aud` claim (a string or an array of strings) names one of `accepted` (canonical). */
export function audienceMatches(aud: unknown, accepted: readonly string[]): boolean {
  if (typeof aud === 'string') return accepted.includes(canonicalUri(aud));
  if (!Array.isArray(aud)) return false;
  for (const one of aud as unknown[])
    if (typeof one === 'string' && accepted.includes(canonicalUri(one))) return true;
  return false;
}

/**
 * The audiences a verifier accepts, by resource: its own list, else the resource (all
 * canonical). Computed once per resource, not per request.
 */
export function acceptedAudiences(
  audience: string | readonly string[] | undefined,
): (resource: string) => readonly string[] {
  const fixed =
    audience === undefined
      ? undefined
      : (typeof audience === 'string' ? [audience] : audience).map(canonicalUri);
  const byResource = new Map<string, readonly string[]>();
  return (resource) => {
    if (fixed) return fixed;
    let accepted = byResource.get(resource);
    if (!accepted) {
      accepted = [canonicalUri(resource)];
      if (byResource.size < 16) byResource.set(resource, accepted);
    }
    return accepted;
  };
}

/**
 * The scopes a token grants: its `scope` (a space-separated string, RFC 8693/9068), else `scp`
 * (a string, as Entra ID sends it, or an array, as Okta does).
 */
export function scopesOf(claims: Readonly<Record<string, unknown>>): readonly string[] {
  const scope = claims['scope'] ?? claims['scp'];
  if (typeof scope === 'string') return scope.split(' ').filter((s) => s !== '');
  if (Array.isArray(scope))
    return (scope as unknown[]).filter((s): s is string => typeof s === 'string' && s !== '');
  return [];
}

/**
 * The identity of a verified token's claims: `<issuer> <subject>` as its id, with its scopes,
 * client (`client_id`, else `azp`) and expiry. `subject` and `issuer` are given by the verifier
 * (it checked them).
 */
export function identityOf(
  claims: Readonly<Record<string, unknown>>,
  verified: { issuer: string; subject: string },
): Identity {
  const clientId = claims['client_id'] ?? claims['azp'];
  const exp = claims['exp'];
  return {
    id: `${verified.issuer} ${verified.subject}`,
    issuer: verified.issuer,
    subject: verified.subject,
    scopes: Object.freeze([...scopesOf(claims)]),
    claims: Object.freeze({ ...claims }),
    ...(typeof clientId === 'string' ? { clientId } : {}),
    ...(typeof exp === 'number' ? { expiresAt: exp * 1000 } : {}),
  };
}

/** True for a host name or address on the loopback interface. */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Why `value` is not an absolute `https` URL without fragment (or, with `allowLoopbackHttp`, an
 * `http` one on a loopback host, for development), or undefined. `what` names it in the message.
 */
export function httpsUrlProblem(
  value: unknown,
  what: string,
  options: { allowLoopbackHttp: boolean; query?: boolean },
): string | undefined {
  if (typeof value !== 'string') return `${what} must be a URL string`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${what} ${JSON.stringify(value)} is not an absolute URL`;
  }
  if (url.hash !== '' || value.includes('#'))
    return `${what} ${JSON.stringify(value)} must not have a fragment`;
  if (options.query === false && url.search !== '')
    return `${what} ${JSON.stringify(value)} must not have a query`;
  if (url.username !== '' || url.password !== '')
    return `${what} ${JSON.stringify(value)} must not carry credentials`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) {
    return options.allowLoopbackHttp
      ? undefined
      : `${what} ${JSON.stringify(value)} uses http: allowed on loopback only with allowLoopbackHttp (development)`;
  }
  return `${what} ${JSON.stringify(value)} must be an https URL`;
}

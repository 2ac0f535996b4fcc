/**
 * @module Verifying opaque access tokens by asking the authorization server (OAuth 2.0 Token
 * Introspection, RFC 7662), authenticated as a client with `client_secret_basic`. Answers are
 * remembered briefly (bounded; never past the token's expiry), concurrent checks of one token
 * share one call, and a revoked token is refused once its cached answer expires.
 */
import { isPlainObject } from '../../../../jsonrpc/guards.js';
import { TokenCache } from './tokenCache.js';
import {
  acceptedAudiences,
  audienceMatches,
  httpsUrlProblem,
  identityOf,
  refused,
  type TokenVerification,
  type TokenVerifier,
  type VerifyContext,
} from './tokenVerifier.js';

/** Options of {@link introspectionVerifier}. */
export interface IntrospectionVerifierOptions {
  /** The introspection endpoint (`introspection_endpoint` of the server's metadata). */
  endpoint: string;
  /** This resource server's client id at the authorization server. */
  clientId: string;
  /** Its client secret (sent with HTTP Basic, `client_secret_basic`). Keep it out of argv. */
  clientSecret: string;
  /**
   * The authorization server's issuer identifier: an answer's `iss`, when present, must equal
   * it, and it forms the identity (`<issuer> <subject>`).
   */
  issuer: string;
  /** The `aud` values accepted. Default: the resource's canonical URI. An answer without `aud` is refused. */
  audience?: string | readonly string[];
  /** Leeway for `exp` and `nbf`, in seconds. Default 30. */
  clockSkewSeconds?: number;
  /** How long an answer is reused, in ms (never past the token's `exp`). Default 30 000; 0 asks every time. */
  cacheTtlMs?: number;
  /** Answers remembered. Default 1000. */
  cacheSize?: number;
  /** Time to wait for the endpoint, in ms. Default 5000. */
  timeoutMs?: number;
  /** Allow an `http` endpoint on a loopback host (development and tests). Default false. */
  allowLoopbackHttp?: boolean;
}

/** RFC 6749 §2.3.1: the client id and secret are form-encoded before Basic encoding. */
function basicCredentials(clientId: string, secret: string): string {
  const form = (s: string): string => encodeURIComponent(s).replace(/%20/g, '+');
  const pair = new TextEncoder().encode(`${form(clientId)}:${form(secret)}`);
  let binary = '';
  for (const byte of pair) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

function checkOptions(options: IntrospectionVerifierOptions): void {
  const problem = httpsUrlProblem(options.endpoint, 'endpoint', {
    allowLoopbackHttp: options.allowLoopbackHttp === true,
  });
  if (problem) throw new TypeError(`introspectionVerifier: ${problem}`);
  for (const key of ['clientId', 'clientSecret', 'issuer'] as const)
    if (typeof options[key] !== 'string' || options[key] === '')
      throw new TypeError(`introspectionVerifier: ${key} must be a non-empty string`);
  const skew = options.clockSkewSeconds;
  if (skew !== undefined && !(skew >= 0 && skew <= 300))
    throw new RangeError('introspectionVerifier: clockSkewSeconds must be between 0 and 300');
}

/** A verdict and how long it may be reused. */
interface Answer {
  readonly verdict: TokenVerification;
  /** The token's `exp` in ms, when known. */
  readonly expiresAt: number | undefined;
  /** The `aud` of an active token (rechecked per resource). */
  readonly aud: unknown;
}

/** Judges an introspection answer (RFC 7662 §2.2). */
function judge(
  body: Record<string, unknown>,
  options: IntrospectionVerifierOptions,
  now: number,
): Answer {
  const exp = typeof body['exp'] === 'number' ? body['exp'] * 1000 : undefined;
  const no = (reason: string): Answer => ({
    verdict: refused(reason),
    expiresAt: exp,
    aud: undefined,
  });
  if (body['active'] !== true) return no('The access token is not active (expired or revoked)');
  const skewMs = (options.clockSkewSeconds ?? 30) * 1000;
  if (body['iss'] !== undefined && body['iss'] !== options.issuer)
    return no('The access token is from another issuer');
  if (exp !== undefined && exp + skewMs <= now) return no('The access token has expired');
  const nbf = body['nbf'];
  if (typeof nbf === 'number' && nbf * 1000 - skewMs > now)
    return no('The access token is not valid yet');
  const type = body['token_type'];
  if (typeof type === 'string' && !['bearer', 'access_token'].includes(type.toLowerCase()))
    return no(`The token is not a Bearer access token (${type})`);
  if (body['cnf'] !== undefined)
    return no('The access token is bound to a key (cnf): it is not a Bearer token');
  // A client acting for itself (client credentials) may come without `sub`: its id is the subject.
  const subject = body['sub'] ?? body['client_id'];
  if (typeof subject !== 'string' || subject === '')
    return no('The access token has no subject (sub)');
  return {
    verdict: { ok: true, identity: identityOf(body, { issuer: options.issuer, subject }) },
    expiresAt: exp,
    aud: body['aud'],
  };
}

/**
 * A verifier that asks the authorization server about each token (RFC 7662): `active` must be
 * true, `iss` (when given) the issuer, `aud` this resource, `exp`/`nbf` within the clock skew,
 * the type a Bearer access token, and no key binding (`cnf`).
 */
export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  checkOptions(options);
  const authorization = basicCredentials(options.clientId, options.clientSecret);
  const ttl = options.cacheTtlMs ?? 30_000;
  const cache = new TokenCache<Answer>(ttl > 0 ? (options.cacheSize ?? 1000) : 0);
  const inFlight = new Map<string, Promise<Answer | undefined>>();
  const audiences = acceptedAudiences(options.audience);

  const ask = async (token: string, context: VerifyContext): Promise<Answer | undefined> => {
    let body: unknown;
    try {
      const response = await fetch(options.endpoint, {
        method: 'POST',
        redirect: 'error',
        signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
        headers: {
          authorization,
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
      });
      if (response.status !== 200) {
        await response.body?.cancel();
        throw new Error(
          `Token introspection at ${options.endpoint} answered ${response.status}${response.status === 401 ? ' (check the resource server client id and secret)' : ''}`,
        );
      }
      body = await response.json();
    } catch (error) {
      context.report(error);
      return undefined;
    }
    if (!isPlainObject(body)) {
      context.report(
        new Error(`Token introspection at ${options.endpoint} answered no JSON object`),
      );
      return undefined;
    }
    const now = Date.now();
    const answer = judge(body, options, now);
    const until = Math.min(now + ttl, answer.expiresAt ?? Infinity);
    cache.set(token, answer, { until, now });
    return answer;
  };

  const verdictOf = (answer: Answer | undefined, resource: string): TokenVerification => {
    if (answer === undefined)
      return refused(
        'The authorization server could not be asked about the token; try again',
        true,
      );
    if (!answer.verdict.ok) return answer.verdict;
    if (answer.aud === undefined)
      return refused('The authorization server did not say which resource the token is for (aud)');
    return audienceMatches(answer.aud, audiences(resource))
      ? answer.verdict
      : refused('The access token is not for this resource (aud)');
  };

  // An answer in the cache is used synchronously: no promise per request.
  return (token, context) => {
    const answer = cache.get(token, Date.now());
    if (answer !== undefined) return verdictOf(answer, context.resource);
    let pending = inFlight.get(token);
    if (!pending) {
      pending = ask(token, context).finally(() => inFlight.delete(token));
      inFlight.set(token, pending);
    }
    return pending.then((asked) => verdictOf(asked, context.resource));
  };
}

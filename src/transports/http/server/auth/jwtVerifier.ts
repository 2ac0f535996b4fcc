/**
 * @module Verifying JWT access tokens (RFC 9068) against the issuer's JSON Web Key Set, with
 * `jose` (an optional peer dependency, imported on first use). Keys are cached; a token signed
 * by a key the cache does not know makes the set be fetched again, at most once per cooldown, so
 * a flood of made-up key ids cannot hammer the issuer. Verified tokens are remembered until they
 * expire (bounded), so a client sending its token on every request costs one signature check.
 */
import type * as JoseModule from 'jose';
import type { JWTPayload, JWTVerifyGetKey } from 'jose';
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

/** The asymmetric JWS algorithms accepted by default: never `none`, never HMAC (HS*). */
export const DEFAULT_JWT_ALGORITHMS: readonly string[] = Object.freeze([
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
]);

/** Options of {@link jwtVerifier}. */
export interface JwtVerifierOptions {
  /** The issuer's JWKS URL (`jwks_uri` of its metadata). https, or loopback http with `allowLoopbackHttp`. */
  jwksUrl: string;
  /** The exact `iss` tokens must carry (compared as strings, RFC 9207/8414). */
  issuer: string;
  /**
   * The `aud` values accepted (one is enough). Default: the resource's canonical URI (RFC 8707),
   * which is what MCP clients request tokens for. Set it when the identity provider puts
   * something else in `aud` (an API identifier, an application id URI).
   */
  audience?: string | readonly string[];
  /** Signature algorithms accepted. Default {@link DEFAULT_JWT_ALGORITHMS}; `none` and HS* are refused. */
  algorithms?: readonly string[];
  /** Leeway for `exp`, `nbf` and `iat`, in seconds. Default 30. */
  clockSkewSeconds?: number;
  /**
   * Require the RFC 9068 header `typ: at+jwt`. Default false: many providers send `JWT` or no
   * `typ`; any other explicit `typ` (an ID token's, a logout token's...) is refused either way.
   */
  requireAccessTokenType?: boolean;
  /** Refetch the key set for an unknown key id at most this often, in ms. Default 30 000. */
  jwksCooldownMs?: number;
  /** Refetch the key set after this long anyway, in ms. Default 600 000. */
  jwksMaxAgeMs?: number;
  /** Time to wait for the key set, in ms. Default 5000. */
  jwksTimeoutMs?: number;
  /** Verified tokens remembered (until they expire). Default 1000; 0 turns it off. */
  cacheSize?: number;
  /** Allow an `http` JWKS URL on a loopback host (development and tests). Default false. */
  allowLoopbackHttp?: boolean;
}

/** A JWT verifier; `ready` settles once `jose` is loaded (rejecting with how to install it). */
export interface JwtTokenVerifier extends TokenVerifier {
  readonly ready: Promise<void>;
}

/** `typ` values that say "a JWT" without saying which kind (RFC 7519, RFC 9068). */
const ACCESS_TOKEN_TYPES = new Set(['jwt', 'at+jwt', 'application/at+jwt']);

type Jose = typeof JoseModule;

function loadJose(): Promise<Jose> {
  return import('jose').catch((error: unknown) => {
    throw new Error(
      'Verifying JWT access tokens needs the "jose" package (an optional peer dependency of toolwire): npm install jose',
      { cause: error },
    );
  });
}

function checkOptions(options: JwtVerifierOptions): readonly string[] {
  const problem = httpsUrlProblem(options.jwksUrl, 'jwksUrl', {
    allowLoopbackHttp: options.allowLoopbackHttp === true,
  });
  if (problem) throw new TypeError(`jwtVerifier: ${problem}`);
  if (typeof options.issuer !== 'string' || options.issuer === '')
    throw new TypeError('jwtVerifier: issuer must be the exact "iss" of the tokens');
  const algorithms = options.algorithms ?? DEFAULT_JWT_ALGORITHMS;
  if (algorithms.length === 0) throw new TypeError('jwtVerifier: algorithms must not be empty');
  for (const alg of algorithms)
    if (alg === 'none' || /^HS/i.test(alg))
      throw new TypeError(
        `jwtVerifier: algorithm ${JSON.stringify(alg)} is refused: a resource server verifies with the issuer's public keys only`,
      );
  const skew = options.clockSkewSeconds;
  if (skew !== undefined && !(skew >= 0 && skew <= 300))
    throw new RangeError('jwtVerifier: clockSkewSeconds must be between 0 and 300');
  return algorithms;
}

/** What a jose error means for the caller: refused (401) or not checkable now (503). */
function verdictOfError(error: unknown, context: VerifyContext): TokenVerification {
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return refused('The access token has expired');
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED': {
      const claim = (error as { claim?: unknown }).claim;
      if (claim === 'iss') return refused('The access token is from another issuer');
      if (claim === 'nbf') return refused('The access token is not valid yet');
      if (claim === 'typ') return refused('The token is not an access token (typ)');
      return refused(`The access token's "${String(claim)}" claim is missing or invalid`);
    }
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return refused('The access token signature does not verify');
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return refused('The access token is signed with an algorithm this server does not accept');
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return refused("No single key of the issuer's key set matches the access token");
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return refused('The access token is not a well-formed signed JWT');
    default:
      // The key set could not be fetched or parsed (timeout, network, not 200, not JSON).
      context.report(error);
      return refused('The issuer key set is unavailable; try again', true);
  }
}

/**
 * A verifier of JWT access tokens: signature by a key of `jwksUrl` with an allowed algorithm,
 * `iss` exactly `issuer`, `aud` naming this resource, `exp` (required) and `nbf` within the
 * clock skew, a `sub`, and no confirmation (`cnf`) claim: a token bound to a key (DPoP, mTLS)
 * is not a Bearer token.
 */
export function jwtVerifier(options: JwtVerifierOptions): JwtTokenVerifier {
  const algorithms = checkOptions(options);
  const cache = new TokenCache<{
    payload: JWTPayload;
    verdict: TokenVerification;
    /** The resource whose audience the token was checked against. */
    resource: string;
  }>(options.cacheSize ?? 1000);
  const audiences = acceptedAudiences(options.audience);
  const skewMs = (options.clockSkewSeconds ?? 30) * 1000;
  const jose = loadJose();
  let keys: JWTVerifyGetKey | undefined;
  const verifyOptions = {
    issuer: options.issuer,
    algorithms: [...algorithms],
    clockTolerance: skewMs / 1000,
    requiredClaims: ['exp', 'sub'],
    ...(options.requireAccessTokenType ? { typ: 'at+jwt' } : {}),
  };

  const verifyNew = async (
    token: string,
    context: VerifyContext,
    accepted: readonly string[],
  ): Promise<TokenVerification> => {
    const now = Date.now();
    let lib: Jose;
    try {
      lib = await jose;
    } catch (error) {
      context.report(error);
      return refused('Access tokens cannot be verified on this server now', true);
    }
    keys ??= lib.createRemoteJWKSet(new URL(options.jwksUrl), {
      cooldownDuration: options.jwksCooldownMs ?? 30_000,
      cacheMaxAge: options.jwksMaxAgeMs ?? 600_000,
      timeoutDuration: options.jwksTimeoutMs ?? 5000,
    });
    let payload: JWTPayload;
    let typ: unknown;
    try {
      const result = await lib.jwtVerify(token, keys, verifyOptions);
      payload = result.payload;
      typ = result.protectedHeader.typ;
    } catch (error) {
      return verdictOfError(error, context);
    }
    if (typeof typ === 'string' && !ACCESS_TOKEN_TYPES.has(typ.toLowerCase()))
      return refused(`The token is not an access token (typ ${typ})`);
    if (!audienceMatches(payload.aud, accepted))
      return refused('The access token is not for this resource (aud)');
    if (payload['cnf'] !== undefined)
      return refused('The access token is bound to a key (cnf): it is not a Bearer token');
    const subject = payload.sub;
    if (typeof subject !== 'string' || subject === '')
      return refused('The access token has no subject (sub)');
    const verdict: TokenVerification = {
      ok: true,
      identity: identityOf(payload, { issuer: options.issuer, subject }),
    };
    cache.set(
      token,
      { payload, verdict, resource: context.resource },
      { until: (payload.exp as number) * 1000 + skewMs, now },
    );
    return verdict;
  };
  // A token seen before is answered synchronously: no promise, no turn of the microtask queue.
  const verify = (
    token: string,
    context: VerifyContext,
  ): TokenVerification | Promise<TokenVerification> => {
    const accepted = audiences(context.resource);
    const cached = cache.get(token, Date.now());
    if (!cached) return verifyNew(token, context, accepted);
    // Checked again for another resource: one verifier may serve several.
    return cached.resource === context.resource || audienceMatches(cached.payload.aud, accepted)
      ? cached.verdict
      : refused('The access token is not for this resource (aud)');
  };
  const ready = jose.then(() => undefined);
  // Reported by the first verification, or by whoever awaits `ready`: never unhandled.
  ready.catch(() => {});
  return Object.assign(verify, { ready });
}

/**
 * @module Revoking tokens at the authorization server that issued them (RFC 7009), when a user
 * logs out: tokens only forgotten here would stay valid there, and a copy of the refresh token
 * (a backup, another machine) would keep working. The refresh token goes first (most servers then
 * end the whole grant, its access tokens with it), then the access token; each is POSTed to the
 * `revocation_endpoint` with its `token_type_hint`, the client authenticated as registered. A
 * server that says it revokes no tokens of a type (`unsupported_token_type`, RFC 7009 §2.2.1, as
 * servers issuing JWT access tokens do) leaves those to expire.
 */
import type { AuthorizationServer } from './discovery.js';
import { OAuthError } from './oauthError.js';
import type { OAuthHttp } from './oauthHttp.js';
import { oauthErrorText } from './registration.js';
import { authenticateClient } from './tokenEndpoint.js';
import type { StoredClient, StoredTokens, TokenKey } from './types.js';

/** What became of a logout's tokens at their authorization server. */
export interface Revocation {
  /** The authorization server that issued them. */
  readonly issuer: string;
  /**
   * `revoked`: the server accepted the revocation of the refresh token (of the access token when
   * there was none); an access token of a kind it does not revoke (a JWT) stays valid until it
   * expires. `unsupported`: it advertises no revocation endpoint, or does not revoke that token:
   * the tokens stay valid until they expire there. `failed`: a revocation was refused or could
   * not be sent (`error` says why).
   */
  readonly status: 'revoked' | 'unsupported' | 'failed';
  /** With `failed`: why. */
  readonly error?: OAuthError;
}

type Hint = 'refresh_token' | 'access_token';

/** Revokes one token; false when the server revokes no tokens of that type. */
async function revokeOne(
  http: OAuthHttp,
  at: { server: AuthorizationServer; client: StoredClient; endpoint: URL },
  request: { token: string; hint: Hint; signal: AbortSignal | undefined },
): Promise<boolean> {
  const { server, client, endpoint } = at;
  const body = new URLSearchParams({ token: request.token, token_type_hint: request.hint });
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
  };
  authenticateClient(client, body, headers);
  const answer = await http.post(endpoint, 'The revocation endpoint', {
    body: body.toString(),
    headers,
    signal: request.signal,
  });
  if (answer.status === 200) return true;
  const json = answer.json as Record<string, unknown> | undefined;
  const error = typeof json?.['error'] === 'string' ? json['error'] : 'revocation_failed';
  if (answer.status === 400 && error === 'unsupported_token_type') return false;
  const kind = request.hint === 'refresh_token' ? 'refresh token' : 'access token';
  throw new OAuthError(
    error,
    `The revocation of the ${kind} at ${server.issuer} failed with HTTP ${answer.status}` +
      oauthErrorText(json),
    { issuer: server.issuer },
  );
}

/** Revokes `tokens` at `server` as `client`; throws OAuthError when a revocation fails. */
export async function revokeTokens(
  http: OAuthHttp,
  at: { server: AuthorizationServer; client: StoredClient },
  request: { tokens: StoredTokens; signal?: AbortSignal | undefined },
): Promise<Revocation> {
  const { server } = at;
  const endpoint = server.revocationEndpoint;
  if (!endpoint) return { issuer: server.issuer, status: 'unsupported' };
  const { tokens, signal } = request;
  const where = { ...at, endpoint };
  const refreshRevoked =
    tokens.refreshToken === undefined
      ? undefined
      : await revokeOne(http, where, { token: tokens.refreshToken, hint: 'refresh_token', signal });
  const accessRevoked = await revokeOne(http, where, {
    token: tokens.accessToken,
    hint: 'access_token',
    signal,
  });
  // What lasts is the refresh token: its fate is the logout's (an access token expires soon).
  const revoked = refreshRevoked ?? accessRevoked;
  return { issuer: server.issuer, status: revoked ? 'revoked' : 'unsupported' };
}

/** How a client finds what a revocation needs. */
export interface RevocationContext {
  readonly http: OAuthHttp;
  /** The issuer's metadata (discovered). */
  server(issuer: string): Promise<AuthorizationServer>;
  /** The client registered with the issuer, if one is known. */
  client(issuer: string): Promise<StoredClient | undefined>;
}

/**
 * Revokes the tokens held under `key` at their issuer (see {@link revokeTokens}); never throws: a
 * revocation that fails or cannot be sent resolves with `failed` and why.
 */
export async function revokeHeld(
  context: RevocationContext,
  request: { key: TokenKey; tokens: StoredTokens; signal?: AbortSignal | undefined },
): Promise<Revocation> {
  const { issuer } = request.key;
  try {
    const server = await context.server(issuer);
    if (!server.revocationEndpoint) return { issuer, status: 'unsupported' };
    const client = await context.client(issuer);
    if (!client)
      throw new OAuthError(
        'registration_unavailable',
        `No registration with ${issuer} is kept: the tokens cannot be revoked as the client they were issued to`,
        { issuer },
      );
    return await revokeTokens(context.http, { server, client }, request);
  } catch (error) {
    const failure =
      error instanceof OAuthError
        ? error
        : new OAuthError(
            'revocation_failed',
            `The revocation at ${issuer} failed: ${error instanceof Error ? error.message : String(error)}`,
            { issuer, cause: error },
          );
    return { issuer, status: 'failed', error: failure };
  }
}

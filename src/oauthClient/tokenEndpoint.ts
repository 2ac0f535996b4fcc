/**
 * @module Requests to the token endpoint: the authorization code exchange (with the PKCE
 * verifier and the RFC 8707 `resource`) and refresh. The client authenticates as registered:
 * `client_secret_basic` (RFC 6749 §2.3.1: id and secret form-encoded, then Basic), `client_secret_post`
 * or `none` (the client id in the body). A response is accepted only with a Bearer access token.
 */
import type { AuthorizationServer } from './discovery.js';
import type { OAuthHttp } from './oauthHttp.js';
import { OAuthError } from './oauthError.js';
import { oauthErrorText } from './registration.js';
import type { StoredClient, StoredTokens } from './types.js';

/** A token request: its grant's parameters. */
export type TokenGrant =
  | { grant_type: 'authorization_code'; code: string; code_verifier: string; redirect_uri: string }
  | { grant_type: 'refresh_token'; refresh_token: string };

/** Standard base64 of a string's UTF-8 bytes. */
function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

/**
 * Authenticates `client` on a form request to the token or revocation endpoint, as registered:
 * a Basic header, the secret in the form, or only the client id in the form.
 */
export function authenticateClient(
  client: StoredClient,
  body: URLSearchParams,
  headers: Record<string, string>,
): void {
  if (
    client.tokenEndpointAuthMethod === 'client_secret_basic' &&
    client.clientSecret !== undefined
  ) {
    const pair = `${formEncode(client.clientId)}:${formEncode(client.clientSecret)}`;
    headers['authorization'] = `Basic ${base64Utf8(pair)}`;
    return;
  }
  body.set('client_id', client.clientId);
  if (client.tokenEndpointAuthMethod === 'client_secret_post' && client.clientSecret !== undefined)
    body.set('client_secret', client.clientSecret);
}

/** Sends a grant; resolves with the tokens, or throws OAuthError with the server's `error`. */
export async function requestTokens(
  http: OAuthHttp,
  at: { server: AuthorizationServer; client: StoredClient; resource: string | undefined },
  request: { grant: TokenGrant; scope?: string | undefined; signal?: AbortSignal | undefined },
): Promise<StoredTokens> {
  const { server, client } = at;
  const body = new URLSearchParams(request.grant);
  if (at.resource !== undefined) body.set('resource', at.resource);
  if (request.scope) body.set('scope', request.scope);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
  };
  authenticateClient(client, body, headers);
  const answer = await http.post(server.tokenEndpoint, 'The token endpoint', {
    body: body.toString(),
    headers,
    signal: request.signal,
  });
  const json = answer.json as Record<string, unknown> | undefined;
  if (answer.status !== 200 || typeof json?.['access_token'] !== 'string') {
    const error = typeof json?.['error'] === 'string' ? json['error'] : 'token_request_failed';
    throw new OAuthError(
      error,
      `The token request (${request.grant.grant_type}) to ${server.issuer} failed with HTTP ` +
        `${answer.status}${oauthErrorText(json)}`,
      { issuer: server.issuer },
    );
  }
  const type = json['token_type'];
  if (typeof type !== 'string' || type.toLowerCase() !== 'bearer')
    throw new OAuthError(
      'token_request_failed',
      `The token endpoint of ${server.issuer} issued a token of type ${JSON.stringify(type)}, not Bearer`,
      { issuer: server.issuer },
    );
  const expiresIn = json['expires_in'];
  const refresh = json['refresh_token'];
  const scope = json['scope'];
  return {
    accessToken: json['access_token'],
    tokenType: 'Bearer',
    ...(typeof expiresIn === 'number' && expiresIn > 0
      ? { expiresAt: Date.now() + expiresIn * 1000, expiresIn }
      : {}),
    ...(typeof refresh === 'string' ? { refreshToken: refresh } : {}),
    ...(typeof scope === 'string'
      ? { scope }
      : request.scope !== undefined
        ? { scope: request.scope }
        : {}),
  };
}

/**
 * @module One interactive authorization: the authorization URL (PKCE S256, a fresh `state`, the
 * RFC 8707 `resource`, the scope), checked before the user is sent to it, then the redirect back
 * checked before its code is used: the `state` must be ours; `iss` (RFC 9207), when present, must
 * be exactly the issuer the metadata was fetched from (no normalisation), and must be present
 * when the server advertises it; an `error` is the server's answer, passed on.
 */
import type { AuthorizationServer } from './discovery.js';
import { checkScheme, type NetworkPolicy } from './networkPolicy.js';
import { OAuthError } from './oauthError.js';
import { pkcePair, randomToken } from './pkce.js';
import type { OpenAuthorizationUrl, RedirectReceiver, StoredClient } from './types.js';

/** What the user's authorization produced: a code and the verifier that redeems it. */
export interface AuthorizationCode {
  readonly code: string;
  readonly verifier: string;
  readonly redirectUri: string;
}

/** The user-facing pieces and limits of an authorization. */
export interface Interaction {
  readonly open: OpenAuthorizationUrl;
  readonly receiver: RedirectReceiver;
  readonly timeoutMs: number;
  readonly policy: NetworkPolicy;
}

/** Sends the user to the authorization server and returns the code it redirected back with. */
export async function obtainCode(
  interaction: Interaction,
  at: { server: AuthorizationServer; client: StoredClient; redirectUri: string },
  request: {
    resource: string | undefined;
    scope: string | undefined;
    signal?: AbortSignal | undefined;
  },
): Promise<AuthorizationCode> {
  const { server, client, redirectUri } = at;
  const { verifier, challenge } = await pkcePair();
  const state = randomToken();
  const url = new URL(server.authorizationEndpoint);
  const query = url.searchParams;
  query.set('response_type', 'code');
  query.set('client_id', client.clientId);
  query.set('redirect_uri', redirectUri);
  query.set('code_challenge', challenge);
  query.set('code_challenge_method', 'S256');
  query.set('state', state);
  if (request.resource !== undefined) query.set('resource', request.resource);
  if (request.scope) query.set('scope', request.scope);
  checkScheme(url, interaction.policy, 'The authorization endpoint');
  const timeout = AbortSignal.timeout(interaction.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  const waiting = interaction.receiver.wait(signal);
  // The receiver listens before the user is sent off: a fast redirect is not missed.
  waiting.catch(() => {});
  await interaction.open(url);
  let back: URLSearchParams;
  try {
    back = await waiting;
  } catch (error) {
    if (timeout.aborted && !request.signal?.aborted)
      throw new OAuthError(
        'login_required',
        `The authorization at ${server.issuer} was not completed within ${Math.round(interaction.timeoutMs / 1000)} s`,
        { issuer: server.issuer, cause: error },
      );
    throw error;
  }
  return { code: checkRedirect(back, { server, state }), verifier, redirectUri };
}

/** The code of a redirect that is ours and from the right server; throws otherwise. */
export function checkRedirect(
  back: URLSearchParams,
  expected: { server: AuthorizationServer; state: string },
): string {
  const { issuer } = expected.server;
  if (back.get('state') !== expected.state)
    throw new OAuthError(
      'state_mismatch',
      'The redirect from the authorization server does not carry the state of this request; ' +
        'it is ignored (another tab, or a forged redirect)',
      { issuer },
    );
  const iss = back.get('iss');
  if (iss !== null && iss !== issuer)
    throw new OAuthError(
      'issuer_mismatch',
      `The redirect names the issuer ${JSON.stringify(iss.slice(0, 200))}, not ${issuer}: it is ` +
        'refused (RFC 9207, a mix-up attack)',
      { issuer },
    );
  if (iss === null && expected.server.issParameterSupported)
    throw new OAuthError(
      'issuer_mismatch',
      `The redirect lacks the iss parameter ${issuer} advertises (RFC 9207); it is refused`,
      { issuer },
    );
  const error = back.get('error');
  if (error !== null) {
    const description = back.get('error_description');
    throw new OAuthError(
      error.slice(0, 100),
      `The authorization server ${issuer} answered ${error.slice(0, 100)}` +
        (description ? `: ${description.slice(0, 300)}` : ''),
      { issuer },
    );
  }
  const code = back.get('code');
  if (!code)
    throw new OAuthError('invalid_redirect', 'The redirect carries neither a code nor an error', {
      issuer,
    });
  return code;
}

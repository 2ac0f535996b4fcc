/**
 * @module How the client gets a client id at an authorization server, in the spec's priority:
 * credentials the application pre-registered (for that issuer, or for any); a Client ID Metadata
 * Document when the server supports them; Dynamic Client Registration (RFC 7591), with
 * `application_type` `native` for a loopback redirect and `web` otherwise; else a clear error.
 * A registration is kept per issuer, never used with another server, and redone when its secret
 * expired or it does not hold the redirect URI in use.
 */
import type { AuthorizationServer } from './discovery.js';
import { isLoopbackHost } from '../transports/http/shared/loopback.js';
import type { OAuthHttp } from './oauthHttp.js';
import { OAuthError } from './oauthError.js';
import { redact } from './networkPolicy.js';
import type { OAuthStore, StoredClient } from './types.js';

/** Token endpoint authentication methods toolwire's client speaks. */
export type TokenEndpointAuthMethod = StoredClient['tokenEndpointAuthMethod'];

/** Credentials the application registered with an authorization server beforehand. */
export interface PreRegisteredClient {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** Default: `client_secret_basic` with a secret (or `client_secret_post` if that is all the
   * server supports), `none` without. */
  readonly tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /** The issuer they belong to; unset: any. */
  readonly issuer?: string;
}

/** What the client says about itself when it registers. */
export interface ClientDescription {
  readonly clientName: string;
  readonly clientUri?: string | undefined;
  readonly softwareId?: string | undefined;
  readonly softwareVersion?: string | undefined;
}

/** The registration choices of an OAuthClient. */
export interface RegistrationOptions {
  readonly preRegistered: PreRegisteredClient | undefined;
  readonly clientMetadataUrl: string | undefined;
  readonly dynamicRegistration: boolean;
  readonly description: ClientDescription;
}

const METHODS: readonly TokenEndpointAuthMethod[] = [
  'client_secret_basic',
  'client_secret_post',
  'none',
];

/** The method for a client holding a secret (or not), among those the server lists. */
function methodFor(server: AuthorizationServer, hasSecret: boolean): TokenEndpointAuthMethod {
  if (!hasSecret) return 'none';
  const listed = server.tokenEndpointAuthMethods;
  // RFC 8414: unlisted means client_secret_basic.
  if (!listed || listed.includes('client_secret_basic')) return 'client_secret_basic';
  return listed.includes('client_secret_post') ? 'client_secret_post' : 'client_secret_basic';
}

/** Whether a kept registration still serves for `redirectUri`. */
function usable(client: StoredClient, redirectUri: string, now: number): boolean {
  if (client.clientSecretExpiresAt !== undefined && client.clientSecretExpiresAt <= now)
    return false;
  if (client.registration !== 'dynamic') return true;
  return client.redirectUris?.some((held) => sameRedirect(held, redirectUri)) ?? false;
}

/**
 * Whether a registered redirect URI covers the one in use: the same, or, for a loopback http
 * one, the same but for the port, which a native application's listener gets anew each time and
 * the authorization server must accept whatever it is (RFC 8252 §7.3). Registering again at
 * every login would leave a client behind each time and orphan the refresh tokens of the last.
 */
function sameRedirect(held: string, used: string): boolean {
  if (held === used) return true;
  try {
    const a = new URL(held);
    const b = new URL(used);
    if (a.protocol !== 'http:' || b.protocol !== 'http:' || !isLoopbackHost(a.hostname))
      return false;
    a.port = '';
    b.port = '';
    return a.href === b.href;
  } catch {
    return false;
  }
}

/** The client to use with `server`, registering it when needed. */
export async function obtainClient(
  context: { http: OAuthHttp; store: OAuthStore; options: RegistrationOptions },
  server: AuthorizationServer,
  redirect: { uri: string; scope: string | undefined; signal?: AbortSignal | undefined },
): Promise<StoredClient> {
  const { store, options } = context;
  const pre = options.preRegistered;
  if (pre && (pre.issuer === undefined || pre.issuer === server.issuer)) {
    const hasSecret = pre.clientSecret !== undefined;
    return {
      clientId: pre.clientId,
      ...(hasSecret ? { clientSecret: pre.clientSecret } : {}),
      tokenEndpointAuthMethod: pre.tokenEndpointAuthMethod ?? methodFor(server, hasSecret),
      registration: 'pre-registered',
    };
  }
  const kept = await store.getClient(server.issuer);
  if (kept && kept.registration !== 'pre-registered' && usable(kept, redirect.uri, Date.now()))
    if (kept.registration !== 'metadata-document' || kept.clientId === options.clientMetadataUrl)
      return kept;
  if (server.clientIdMetadataDocumentSupported && options.clientMetadataUrl !== undefined) {
    const client: StoredClient = {
      clientId: options.clientMetadataUrl,
      tokenEndpointAuthMethod: 'none',
      registration: 'metadata-document',
    };
    await store.setClient(server.issuer, client);
    return client;
  }
  if (options.dynamicRegistration && server.registrationEndpoint) {
    const client = await register(
      { http: context.http, description: options.description },
      server,
      redirect,
    );
    await store.setClient(server.issuer, client);
    return client;
  }
  throw new OAuthError(
    'registration_unavailable',
    `No way to register with the authorization server ${server.issuer}: ` +
      [
        pre ? `the pre-registered client is for ${pre.issuer}` : 'no pre-registered client id',
        server.clientIdMetadataDocumentSupported
          ? 'no client metadata document URL'
          : 'no client ID metadata documents',
        server.registrationEndpoint ? 'dynamic registration is off' : 'no dynamic registration',
      ].join(', '),
    { issuer: server.issuer },
  );
}

/** Dynamic Client Registration (RFC 7591). */
async function register(
  context: { http: OAuthHttp; description: ClientDescription },
  server: AuthorizationServer,
  redirect: { uri: string; scope: string | undefined; signal?: AbortSignal | undefined },
): Promise<StoredClient> {
  const { http, description } = context;
  const endpoint = server.registrationEndpoint as URL;
  const native = isLoopbackHost(new URL(redirect.uri).hostname);
  const listed = server.tokenEndpointAuthMethods;
  // A native application keeps no secret worth the name: a public client when the server allows.
  const requested: TokenEndpointAuthMethod =
    !listed || listed.includes('none') ? 'none' : methodFor(server, true);
  const metadata: Record<string, unknown> = {
    client_name: description.clientName,
    redirect_uris: [redirect.uri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: requested,
    application_type: native ? 'native' : 'web',
    ...(description.clientUri ? { client_uri: description.clientUri } : {}),
    ...(description.softwareId ? { software_id: description.softwareId } : {}),
    ...(description.softwareVersion ? { software_version: description.softwareVersion } : {}),
    // No `scope`: an authorization server may hold the client to the scopes it registered with,
    // and the registration is kept for later logins that ask for more (a step-up, --scope).
  };
  const answer = await http.post(endpoint, 'The registration endpoint', {
    body: JSON.stringify(metadata),
    headers: { 'content-type': 'application/json' },
    signal: redirect.signal,
  });
  const json = answer.json as Record<string, unknown> | undefined;
  if ((answer.status !== 201 && answer.status !== 200) || typeof json?.['client_id'] !== 'string')
    throw new OAuthError(
      'registration_failed',
      `Dynamic registration at ${redact(endpoint)} failed with HTTP ${answer.status}` +
        oauthErrorText(json),
      { issuer: server.issuer },
    );
  const secret = typeof json['client_secret'] === 'string' ? json['client_secret'] : undefined;
  const said = json['token_endpoint_auth_method'];
  const method =
    typeof said === 'string' && (METHODS as readonly string[]).includes(said)
      ? (said as TokenEndpointAuthMethod)
      : secret !== undefined
        ? methodFor(server, true)
        : 'none';
  const expires = json['client_secret_expires_at'];
  return {
    clientId: json['client_id'],
    ...(secret !== undefined ? { clientSecret: secret } : {}),
    tokenEndpointAuthMethod: method,
    ...(typeof expires === 'number' && expires > 0
      ? { clientSecretExpiresAt: expires * 1000 }
      : {}),
    redirectUris: Array.isArray(json['redirect_uris'])
      ? json['redirect_uris'].filter((u): u is string => typeof u === 'string')
      : [redirect.uri],
    registration: 'dynamic',
  };
}

/** `: error (description)` from an OAuth error body, bounded; '' when there is none. */
export function oauthErrorText(json: unknown): string {
  if (typeof json !== 'object' || json === null) return '';
  const { error, error_description: description } = json as Record<string, unknown>;
  if (typeof error !== 'string') return '';
  const detail = typeof description === 'string' ? ` (${description.slice(0, 300)})` : '';
  return `: ${error.slice(0, 100)}${detail}`;
}

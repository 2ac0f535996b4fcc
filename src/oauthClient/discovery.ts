/**
 * @module Discovering who authorizes access to an MCP server. The server's Protected Resource
 * Metadata (RFC 9728) comes from the `resource_metadata` of its 401 challenge, else from the
 * path-inserted and then the root well-known URI; its `resource` must be the server's own. Its
 * first authorization server's metadata is tried at the RFC 8414 path-inserted, OpenID Connect
 * path-inserted and OpenID Connect path-appended URIs (the spec's order); its `issuer` must be
 * exactly the one the URL was built from, and it must support PKCE with S256. A server without
 * resource metadata is a 2025-03-26 one: its origin is the authorization server, with the
 * metadata at the root well-known URI or else the default endpoints.
 */
import type { OAuthHttp } from './oauthHttp.js';
import { OAuthError } from './oauthError.js';
import { redact } from './networkPolicy.js';

/** What a protected resource says about itself. */
export interface ResourceMetadata {
  readonly resource: string;
  readonly authorizationServers: readonly string[];
  readonly scopesSupported: readonly string[] | undefined;
}

/** What the client uses of an authorization server's metadata. */
export interface AuthorizationServer {
  readonly issuer: string;
  readonly authorizationEndpoint: URL;
  readonly tokenEndpoint: URL;
  readonly registrationEndpoint: URL | undefined;
  readonly scopesSupported: readonly string[] | undefined;
  readonly tokenEndpointAuthMethods: readonly string[] | undefined;
  /** RFC 9207: the authorization response carries `iss`, and it must. */
  readonly issParameterSupported: boolean;
  readonly clientIdMetadataDocumentSupported: boolean;
  readonly revocationEndpoint: URL | undefined;
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `origin` + `/.well-known/<name>` + path (path-inserted), path without its trailing slash. */
function wellKnown(url: URL, name: string, path = url.pathname): URL {
  const trimmed = path.replace(/\/+$/, '');
  return new URL(`/.well-known/${name}${trimmed}`, url.origin);
}

/** The URIs the resource metadata is looked for at, in order. */
export function resourceMetadataUrls(endpoint: URL, fromChallenge: string | undefined): URL[] {
  const urls: URL[] = [];
  if (fromChallenge !== undefined) {
    try {
      urls.push(new URL(fromChallenge, endpoint));
    } catch {
      // An unusable URL in the challenge: the well-known URIs still apply.
    }
  }
  const hasPath = endpoint.pathname.replace(/\/+$/, '') !== '';
  if (hasPath) urls.push(wellKnown(endpoint, 'oauth-protected-resource'));
  urls.push(wellKnown(endpoint, 'oauth-protected-resource', '/'));
  return urls;
}

/**
 * True when metadata naming `resource` may be used for `endpoint`: the same origin, and the
 * endpoint's path is the resource's path or below it (a resource of `https://h/` covers
 * `https://h/mcp`; one of `https://h/other` does not).
 */
export function resourceCovers(resource: string, endpoint: URL): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  if (url.origin !== endpoint.origin || url.hash !== '') return false;
  const base = url.pathname.replace(/\/+$/, '');
  const path = endpoint.pathname.replace(/\/+$/, '');
  return path === base || path.startsWith(`${base}/`);
}

/**
 * The server's resource metadata; undefined when it has none (every URI answered 404 or another
 * client error: a 2025-03-26 server). Metadata for another resource is refused.
 */
export async function discoverResource(
  http: OAuthHttp,
  endpoint: URL,
  request: { fromChallenge: string | undefined; signal?: AbortSignal | undefined },
): Promise<ResourceMetadata | undefined> {
  const { fromChallenge, signal } = request;
  for (const url of resourceMetadataUrls(endpoint, fromChallenge)) {
    const answer = await http.getJson(url, 'The protected resource metadata', signal);
    if (answer.status !== 200) continue;
    const json = answer.json;
    const servers = isObject(json) ? strings(json['authorization_servers']) : undefined;
    if (!isObject(json) || typeof json['resource'] !== 'string' || !servers?.length)
      throw new OAuthError(
        'invalid_metadata',
        `The protected resource metadata at ${redact(url)} lacks resource or authorization_servers`,
      );
    if (!resourceCovers(json['resource'], endpoint))
      throw new OAuthError(
        'resource_mismatch',
        `The protected resource metadata at ${redact(url)} is for ${JSON.stringify(json['resource'])}, ` +
          `not for ${redact(endpoint)}`,
      );
    return {
      resource: json['resource'],
      authorizationServers: servers,
      scopesSupported: strings(json['scopes_supported']),
    };
  }
  return undefined;
}

/** The URIs an issuer's metadata is looked for at, in the spec's order. */
export function authorizationServerMetadataUrls(issuer: URL): URL[] {
  if (issuer.pathname.replace(/\/+$/, '') === '')
    return [
      wellKnown(issuer, 'oauth-authorization-server', '/'),
      wellKnown(issuer, 'openid-configuration', '/'),
    ];
  return [
    wellKnown(issuer, 'oauth-authorization-server'),
    wellKnown(issuer, 'openid-configuration'),
    new URL(
      `${issuer.pathname.replace(/\/+$/, '')}/.well-known/openid-configuration`,
      issuer.origin,
    ),
  ];
}

function endpointOf(json: Record<string, unknown>, name: string, base: URL): URL | undefined {
  const value = json[name];
  if (typeof value !== 'string') return undefined;
  try {
    return new URL(value);
  } catch {
    throw new OAuthError('invalid_metadata', `The metadata of ${base.href} has an invalid ${name}`);
  }
}

/** Reads metadata checked to be the issuer's and to support PKCE S256. */
function serverFrom(json: Record<string, unknown>, issuer: string, at: URL): AuthorizationServer {
  const authorizationEndpoint = endpointOf(json, 'authorization_endpoint', at);
  const tokenEndpoint = endpointOf(json, 'token_endpoint', at);
  if (!authorizationEndpoint || !tokenEndpoint)
    throw new OAuthError(
      'invalid_metadata',
      `The authorization server metadata at ${redact(at)} lacks its authorization or token endpoint`,
      { issuer },
    );
  if (!strings(json['code_challenge_methods_supported'])?.includes('S256'))
    throw new OAuthError(
      'invalid_metadata',
      `The authorization server ${issuer} does not list S256 in code_challenge_methods_supported; ` +
        'without PKCE the authorization is not attempted',
      { issuer },
    );
  return {
    issuer,
    authorizationEndpoint,
    tokenEndpoint,
    registrationEndpoint: endpointOf(json, 'registration_endpoint', at),
    scopesSupported: strings(json['scopes_supported']),
    tokenEndpointAuthMethods: strings(json['token_endpoint_auth_methods_supported']),
    issParameterSupported: json['authorization_response_iss_parameter_supported'] === true,
    clientIdMetadataDocumentSupported: json['client_id_metadata_document_supported'] === true,
    revocationEndpoint: endpointOf(json, 'revocation_endpoint', at),
  };
}

/** The metadata of the authorization server `issuer` (from resource metadata). */
export async function discoverAuthorizationServer(
  http: OAuthHttp,
  issuer: string,
  signal?: AbortSignal,
): Promise<AuthorizationServer> {
  let issuerUrl: URL;
  try {
    issuerUrl = new URL(issuer);
  } catch {
    throw new OAuthError(
      'invalid_metadata',
      `The authorization server ${JSON.stringify(issuer)} is not a URL`,
    );
  }
  if (issuerUrl.search !== '' || issuerUrl.hash !== '')
    throw new OAuthError('invalid_metadata', `The issuer ${issuer} has a query or fragment`, {
      issuer,
    });
  const statuses: string[] = [];
  for (const url of authorizationServerMetadataUrls(issuerUrl)) {
    const answer = await http.getJson(url, 'The authorization server metadata', signal);
    if (answer.status !== 200 || !isObject(answer.json)) {
      statuses.push(`${redact(url)}: HTTP ${answer.status}`);
      continue;
    }
    if (answer.json['issuer'] !== issuer)
      throw new OAuthError(
        'issuer_mismatch',
        `The authorization server metadata at ${redact(url)} names the issuer ` +
          `${JSON.stringify(answer.json['issuer'])}, not ${issuer}`,
        { issuer },
      );
    return serverFrom(answer.json, issuer, url);
  }
  throw new OAuthError(
    'invalid_metadata',
    `No metadata for the authorization server ${issuer} (${statuses.join('; ')})`,
    { issuer },
  );
}

/**
 * A 2025-03-26 server's authorization server: its origin, described by the metadata at the root
 * well-known URI, else by the default endpoints `/authorize`, `/token` and `/register`.
 */
export async function legacyAuthorizationServer(
  http: OAuthHttp,
  endpoint: URL,
  signal?: AbortSignal,
): Promise<AuthorizationServer> {
  const url = wellKnown(endpoint, 'oauth-authorization-server', '/');
  const answer = await http.getJson(url, 'The authorization server metadata', signal);
  if (answer.status === 200 && isObject(answer.json)) {
    const issuer =
      typeof answer.json['issuer'] === 'string' ? answer.json['issuer'] : endpoint.origin;
    return serverFrom(answer.json, issuer, url);
  }
  const base = endpoint.origin;
  return {
    issuer: base,
    authorizationEndpoint: new URL('/authorize', base),
    tokenEndpoint: new URL('/token', base),
    registrationEndpoint: new URL('/register', base),
    scopesSupported: undefined,
    tokenEndpointAuthMethods: undefined,
    issParameterSupported: false,
    clientIdMetadataDocumentSupported: false,
    revocationEndpoint: undefined,
  };
}

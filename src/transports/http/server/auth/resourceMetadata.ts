/**
 * @module The `oauth` option of the HTTP handler and the Protected Resource Metadata document
 * (RFC 9728) it gives: checked once at start, so a server never runs with metadata a client
 * would reject, and serialised once.
 */
import { scopeListProblem } from '../../../../jsonrpc/scopes.js';
import { canonicalUri, httpsUrlProblem, type TokenVerifier } from './tokenVerifier.js';

/** Protected resource (OAuth 2.1 resource server) settings of the HTTP handler. */
export interface OAuthOptions {
  /**
   * The canonical URI of this MCP server (RFC 8707 / RFC 9728 `resource`), e.g.
   * `https://mcp.example.com/mcp`: what clients request tokens for and tokens' `aud` must name.
   * https, no fragment or query (http on a loopback host with `allowLoopbackHttp`).
   */
  resource: string;
  /** Issuer identifiers of the authorization servers clients get tokens from (at least one). */
  authorizationServers: readonly string[];
  /** Checks each access token (`jwtVerifier`, `introspectionVerifier`, or a function of yours). */
  verifier: TokenVerifier;
  /**
   * Scopes every request needs (403 `insufficient_scope` otherwise); also the `scope` of every
   * challenge. Default: none.
   */
  scopes?: readonly string[];
  /** `scopes_supported` of the metadata. Default: `scopes` (left out when empty). */
  scopesSupported?: readonly string[];
  /**
   * Broader scopes that imply narrower ones (MCP 2026-07-28: servers account for scope
   * hierarchies), e.g. `{ 'files:write': ['files:read'] }`: a token granting `files:write` also
   * holds `files:read` (transitively). Applied to every verified identity.
   */
  scopeHierarchy?: Readonly<Record<string, readonly string[]>>;
  /**
   * More members of the metadata document (`resource_name`, `resource_documentation`,
   * `resource_policy_uri`, `resource_tos_uri`...). The members toolwire sets cannot be replaced.
   */
  metadata?: Readonly<Record<string, unknown>>;
  /** Allow `http` URIs on loopback hosts, for development and tests. Default false. */
  allowLoopbackHttp?: boolean;
}

/** The checked metadata and where it is served. */
export interface ResourceMetadata {
  /** The canonical resource URI. */
  readonly resource: string;
  /** The document, serialised. */
  readonly json: string;
  /** Its absolute URL, as challenges name it (path-inserted, RFC 9728 §3.1). */
  readonly url: string;
  /** The request paths it is served at. */
  readonly paths: ReadonlySet<string>;
  /** The scopes every request needs. */
  readonly requiredScopes: readonly string[];
}

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** Members of the document toolwire owns. */
const OWN_MEMBERS = new Set([
  'resource',
  'authorization_servers',
  'scopes_supported',
  'bearer_methods_supported',
]);

function fail(message: string): never {
  throw new TypeError(`oauth: ${message}`);
}

function checkedScopes(value: unknown, name: string): readonly string[] {
  if (value === undefined) return [];
  const problem = scopeListProblem(value);
  if (problem) fail(`${name}: ${problem}`);
  return Object.freeze([...new Set(value as string[])]);
}

function extraMembers(metadata: unknown): Record<string, unknown> {
  if (metadata === undefined) return {};
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
    fail('metadata must be an object of further metadata members');
  for (const key of Object.keys(metadata))
    if (OWN_MEMBERS.has(key)) fail(`metadata.${key} is set from the other oauth options`);
  try {
    JSON.stringify(metadata);
  } catch (error) {
    fail(`metadata is not JSON: ${(error as Error).message}`);
  }
  return metadata as Record<string, unknown>;
}

/**
 * Checks the options and builds the metadata, served at the path-inserted well-known URI of the
 * resource (and of `endpointPath`, when a proxy maps it elsewhere) and at the root one. Throws a
 * TypeError naming the first problem.
 */
export function resourceMetadata(options: OAuthOptions, endpointPath: string): ResourceMetadata {
  if (typeof options !== 'object' || options === null) fail('must be an object');
  const allowLoopbackHttp = options.allowLoopbackHttp === true;
  const problem = httpsUrlProblem(options.resource, 'resource', {
    allowLoopbackHttp,
    query: false,
  });
  if (problem) fail(problem);
  if (typeof options.verifier !== 'function')
    fail('verifier must be a function (jwtVerifier(...), introspectionVerifier(...) or your own)');
  const servers = options.authorizationServers;
  if (!Array.isArray(servers) || servers.length === 0)
    fail('authorizationServers must list at least one issuer URL');
  for (const server of servers) {
    const bad = httpsUrlProblem(server, 'authorization server', {
      allowLoopbackHttp,
      query: false,
    });
    if (bad) fail(bad);
  }
  const requiredScopes = checkedScopes(options.scopes, 'scopes');
  const supported =
    options.scopesSupported === undefined
      ? requiredScopes
      : checkedScopes(options.scopesSupported, 'scopesSupported');
  const resource = canonicalUri(options.resource);
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname;
  const document = {
    resource,
    authorization_servers: [...(servers as readonly string[])],
    ...(supported.length > 0 ? { scopes_supported: [...supported] } : {}),
    bearer_methods_supported: ['header'],
    ...extraMembers(options.metadata),
  };
  return {
    resource,
    json: JSON.stringify(document),
    url: `${url.origin}${WELL_KNOWN}${path}`,
    paths: new Set([WELL_KNOWN, `${WELL_KNOWN}${path}`, `${WELL_KNOWN}${endpointPath}`]),
    requiredScopes,
  };
}

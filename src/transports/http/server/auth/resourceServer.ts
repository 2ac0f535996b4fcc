/**
 * @module The HTTP handler as an OAuth 2.1 resource server: serves its Protected Resource
 * Metadata, authenticates every MCP request by its Bearer token (never one in the query string),
 * and answers what is missing with the challenge the spec asks for: 401 with the metadata URL
 * and the scopes needed, 403 `insufficient_scope` naming every scope the request needs, 400 for a
 * malformed request. The order of the checks is in docs/authorization.md.
 */
import { TOOLS_CALL } from '../../../../jsonrpc/methods.js';
import type { Classified } from '../../../../jsonrpc/guards.js';
import { isPlainObject } from '../../../../jsonrpc/guards.js';
import { hasScopes, scopeListProblem } from '../../../../jsonrpc/scopes.js';
import type { Identity } from '../../../../jsonrpc/transport.js';
import type { HttpExchange, HttpReply } from '../exchange.js';
import { failureReply, type HttpFailure } from '../httpStatus.js';
import { bearerChallenge, bearerCredential, safeDescription } from './bearer.js';
import { resourceMetadata, type OAuthOptions, type ResourceMetadata } from './resourceMetadata.js';
import type { TokenVerification, TokenVerifier, VerifyContext } from './tokenVerifier.js';

/** What the resource server needs from the handler. */
export interface ResourceServerWiring {
  /** The MCP endpoint path (its metadata is also served path-inserted). */
  readonly endpointPath: string;
  readonly report: (error: unknown) => void;
  /** The scopes a tool needs, by name (the server's `toolScopes`). */
  readonly toolScopes: ((name: string) => readonly string[] | undefined) | undefined;
}

/** The scopes each scope implies, transitively (itself included). */
function impliedScopes(
  hierarchy: Readonly<Record<string, readonly string[]>> | undefined,
): ReadonlyMap<string, readonly string[]> | undefined {
  if (hierarchy === undefined) return undefined;
  if (typeof hierarchy !== 'object' || hierarchy === null)
    throw new TypeError('oauth: scopeHierarchy must map a scope to the scopes it implies');
  const map = new Map<string, readonly string[]>();
  for (const [broad, narrower] of Object.entries(hierarchy)) {
    const problem = scopeListProblem([broad, ...(narrower as unknown[])]);
    if (problem) throw new TypeError(`oauth: scopeHierarchy: ${problem}`);
  }
  for (const broad of Object.keys(hierarchy)) {
    const all = new Set<string>([broad]);
    const queue = [broad];
    for (let scope = queue.pop(); scope !== undefined; scope = queue.pop())
      for (const narrower of hierarchy[scope] ?? [])
        if (!all.has(narrower)) {
          all.add(narrower);
          queue.push(narrower);
        }
    map.set(broad, [...all]);
  }
  return map;
}

/** Replies for the metadata paths (shared: replies are never changed). */
const CORS = Object.freeze({
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-allow-headers': '*',
  'access-control-max-age': '86400',
});

/** The resource server side of one HTTP handler. */
export class OAuthResourceServer {
  /** The checked metadata document and where it is served. */
  readonly metadata: ResourceMetadata;
  private readonly verifier: TokenVerifier;
  private readonly context: VerifyContext;
  private readonly implied: ReadonlyMap<string, readonly string[]> | undefined;
  private readonly expanded = new WeakMap<Identity, Identity>();
  private readonly metadataReply: HttpReply;
  private readonly noToken: HttpReply;
  private readonly serverScopes: string | undefined;

  constructor(
    options: OAuthOptions,
    private readonly wiring: ResourceServerWiring,
  ) {
    this.metadata = resourceMetadata(options, wiring.endpointPath);
    this.verifier = options.verifier;
    this.implied = impliedScopes(options.scopeHierarchy);
    this.context = { resource: this.metadata.resource, report: wiring.report };
    const required = this.metadata.requiredScopes;
    this.serverScopes = required.length > 0 ? required.join(' ') : undefined;
    this.metadataReply = {
      status: 200,
      headers: {
        'content-type': 'application/json',
        'cache-control': 'public, max-age=3600',
        ...CORS,
      },
      body: this.metadata.json,
    };
    this.noToken = this.challenge('unauthorized', 'An access token is required', {});
  }

  /**
   * The answer to a request for the metadata document, or undefined when the request is for
   * another path. GET (and HEAD) only, with CORS so browser-based clients can read it.
   */
  metadataRequest(exchange: HttpExchange): HttpReply | undefined {
    if (!this.metadata.paths.has(exchange.pathname)) return undefined;
    switch (exchange.method) {
      case 'GET':
        return this.metadataReply;
      case 'HEAD':
        return { status: 200, headers: this.metadataReply.headers };
      case 'OPTIONS':
        return { status: 204, headers: CORS };
      default:
        return failureReply('methodNotAllowed', 'The resource metadata is read with GET', {
          allow: 'GET, HEAD, OPTIONS',
        });
    }
  }

  /**
   * The caller of an MCP request, or the reply refusing it. A token in the query string is
   * refused unread (400: RFC 6750 §2.3 use is forbidden by OAuth 2.1 and MCP).
   */
  authenticate(exchange: HttpExchange): Identity | HttpReply | Promise<Identity | HttpReply> {
    if (exchange.query('access_token') !== null)
      return this.challenge(
        'badAuthorization',
        'Access tokens are accepted in the Authorization header only, never in the URL',
        { error: 'invalid_request' },
      );
    const credential = bearerCredential(exchange.header('authorization'));
    if (credential.kind === 'none') return this.noToken;
    if (credential.kind === 'malformed')
      return this.challenge('badAuthorization', credential.why, { error: 'invalid_request' });
    let verdict: TokenVerification | Promise<TokenVerification>;
    try {
      verdict = this.verifier(credential.token, this.context);
    } catch (error) {
      return this.verifierFailed(error);
    }
    return verdict instanceof Promise
      ? verdict.then(
          (v) => this.admit(v),
          (error: unknown) => this.verifierFailed(error),
        )
      : this.admit(verdict);
  }

  /**
   * 403 when the POST's `tools/call` requests name tools whose scopes the caller lacks, naming
   * every scope the POST needs (the server's and each called tool's) in one challenge; undefined
   * when it may go on. Decided before anything is dispatched.
   */
  callScopesProblem(
    classified: readonly Classified[],
    identity: Identity | undefined,
  ): HttpReply | undefined {
    const toolScopes = this.wiring.toolScopes;
    if (!toolScopes) return undefined;
    let needed: Set<string> | undefined;
    let lacking = false;
    for (const c of classified) {
      if (c.kind !== 'request' || c.message.method !== TOOLS_CALL) continue;
      const params = c.message.params;
      const name = isPlainObject(params) ? params['name'] : undefined;
      const scopes = typeof name === 'string' ? toolScopes(name) : undefined;
      if (scopes === undefined) continue;
      needed ??= new Set(this.metadata.requiredScopes);
      for (const scope of scopes) needed.add(scope);
      if (!hasScopes(identity, scopes)) lacking = true;
    }
    if (!lacking || needed === undefined) return undefined;
    return this.challenge('insufficientScope', 'The token lacks scopes this tool needs', {
      error: 'insufficient_scope',
      scope: [...needed].join(' '),
    });
  }

  private admit(verdict: TokenVerification): Identity | HttpReply {
    if (!verdict.ok) {
      if (verdict.unavailable)
        return failureReply('authUnavailable', safeDescription(verdict.reason), {
          'retry-after': '5',
        });
      return this.challenge('unauthorized', verdict.reason, { error: 'invalid_token' });
    }
    const identity = this.withImpliedScopes(verdict.identity);
    if (identity.expiresAt !== undefined && identity.expiresAt <= Date.now())
      return this.challenge('unauthorized', 'The access token has expired', {
        error: 'invalid_token',
      });
    if (!hasScopes(identity, this.metadata.requiredScopes))
      return this.challenge('insufficientScope', 'The token lacks scopes this server needs', {
        error: 'insufficient_scope',
      });
    return identity;
  }

  private verifierFailed(error: unknown): HttpReply {
    this.wiring.report(error);
    return failureReply('authUnavailable', 'The access token could not be checked; try again', {
      'retry-after': '5',
    });
  }

  /** The identity with the scopes its scopes imply (memoised per identity object). */
  private withImpliedScopes(identity: Identity): Identity {
    const implied = this.implied;
    const granted = identity.scopes;
    if (implied === undefined || granted === undefined) return identity;
    let expanded = this.expanded.get(identity);
    if (!expanded) {
      const all = new Set<string>();
      for (const scope of granted) for (const s of implied.get(scope) ?? [scope]) all.add(s);
      expanded = { ...identity, scopes: Object.freeze([...all]) };
      this.expanded.set(identity, expanded);
    }
    return expanded;
  }

  /**
   * A refusal with its `WWW-Authenticate` challenge: the error (none when no token was
   * presented, RFC 6750 §3.1), its description, the scopes needed (the server's unless given)
   * and the metadata URL.
   */
  private challenge(
    failure: HttpFailure,
    description: string,
    params: { error?: string; scope?: string },
  ): HttpReply {
    const text = safeDescription(description);
    const header = bearerChallenge([
      ['error', params.error],
      ['error_description', params.error === undefined ? undefined : text],
      ['scope', params.scope ?? this.serverScopes],
      ['resource_metadata', this.metadata.url],
    ]);
    return failureReply(failure, text, { 'www-authenticate': header });
  }
}

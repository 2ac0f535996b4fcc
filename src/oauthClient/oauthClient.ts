/**
 * @module toolwire's OAuth 2.1 client: the client side of MCP authorization, for the HTTP client
 * transports. A request carries the access token held for its server (refreshed shortly before
 * it expires); a 401 makes the client refresh it, else discover the server's authorization
 * server, register (pre-registered, Client ID Metadata Document, or dynamic registration), send
 * the user to authorize with PKCE, and exchange the code; a 403 `insufficient_scope` steps up to
 * the union of the held and the challenged scopes, a bounded number of times. Tokens are kept
 * per authorization server and MCP server in an {@link OAuthStore}; a registration per
 * authorization server, never used with another.
 */
import {
  discoverAuthorizationServer,
  discoverResource,
  legacyAuthorizationServer,
  type AuthorizationServer,
} from './discovery.js';
import { obtainCode } from './authorizationRequest.js';
import type {
  ChallengeContext,
  HttpAuthorization,
} from '../transports/http/client/httpAuthorization.js';
import { MemoryOAuthStore } from './memoryStore.js';
import { defaultResolver, type NetworkPolicy } from './networkPolicy.js';
import { OAuthError } from './oauthError.js';
import { OAuthHttp } from './oauthHttp.js';
import { nodePinnedFetch } from './pinnedFetch.js';
import { obtainClient, type RegistrationOptions } from './registration.js';
import { selectScope } from './scopeSelection.js';
import { probeServer } from './probe.js';
import { DEFAULT_REFRESH_SKEW_MS, refreshDue } from './refreshWindow.js';
import { revokeHeld, type Revocation } from './revocation.js';
import { requestTokens } from './tokenEndpoint.js';
import type { OAuthStore, StoredClient, StoredTokens, TokenKey } from './types.js';
import { bearerChallenge } from './wwwAuthenticate.js';
import type { AuthorizationResult, ForgottenTokens, OAuthClientOptions } from './clientOptions.js';

export type { AuthorizationResult, ForgottenTokens, OAuthClientOptions } from './clientOptions.js';

/** Tokens held for an MCP server, with the key they are kept under. */
interface Held {
  readonly key: TokenKey;
  readonly tokens: StoredTokens;
}

/** The key tokens for an MCP endpoint are kept under: its URL without fragment. */
export function resourceKeyOf(endpoint: URL | string): string {
  const url = new URL(endpoint);
  url.hash = '';
  return url.href;
}

/** The OAuth 2.1 client of MCP authorization; plug it into a transport as its `auth`. */
export class OAuthClient implements HttpAuthorization {
  private readonly store: OAuthStore;
  private readonly http: Promise<OAuthHttp>;
  private readonly registration: RegistrationOptions;
  /** Authorization servers by issuer, as discovered (refreshing needs the token endpoint). */
  private readonly servers = new Map<string, AuthorizationServer>();
  /** Tokens per MCP server as last read or written (null: none held). */
  private readonly known = new Map<string, Held | null>();
  /** One authorization or refresh at a time per MCP server: concurrent 401s share it. */
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(private readonly options: OAuthClientOptions = {}) {
    this.store = options.store ?? new MemoryOAuthStore();
    const fetcher = options.fetch ?? ((input, init) => fetch(input, init));
    this.http = (async () => {
      const policy: NetworkPolicy = {
        allowLoopbackHttp: options.allowLoopbackHttp ?? false,
        allowPrivateNetwork: options.allowPrivateNetwork ?? false,
        resolveHost: options.resolveHost ?? (await defaultResolver()),
      };
      // An application's own fetch connects where it likes: only the default one is pinned.
      const pinned = options.fetch ? undefined : await nodePinnedFetch();
      return new OAuthHttp({ fetch: fetcher, pinned }, policy);
    })();
    this.registration = {
      preRegistered: options.preRegistered,
      clientMetadataUrl: options.clientMetadataUrl,
      dynamicRegistration: options.dynamicRegistration ?? true,
      description: {
        clientName: options.clientName ?? 'toolwire',
        clientUri: options.clientUri,
        softwareId: options.softwareId,
        softwareVersion: options.softwareVersion,
      },
    };
  }

  async header(endpoint: URL, signal?: AbortSignal): Promise<string | undefined> {
    const resource = resourceKeyOf(endpoint);
    await this.inFlight.get(resource)?.catch(() => {});
    const held = await this.held(resource);
    if (!held) return undefined;
    let tokens = held.tokens;
    if (refreshDue(tokens, this.refreshSkewMs)) {
      const refreshed = tokens.refreshToken
        ? await this.single(resource, () => this.refresh(held.key, tokens, signal))
        : undefined;
      if (!refreshed) return undefined;
      tokens = refreshed;
    }
    return `Bearer ${tokens.accessToken}`;
  }

  private get refreshSkewMs(): number {
    return this.options.refreshSkewMs ?? DEFAULT_REFRESH_SKEW_MS;
  }

  /** Whether it can send the user to authorize (it has a way to open a URL and a receiver). */
  private get interactive(): boolean {
    return (
      this.options.openAuthorizationUrl !== undefined && this.options.redirectReceiver !== undefined
    );
  }

  async challenged(endpoint: URL, response: Response, context: ChallengeContext): Promise<boolean> {
    const resource = resourceKeyOf(endpoint);
    const challenge = bearerChallenge(response.headers.get('www-authenticate'));
    const running = this.inFlight.get(resource);
    if (running) {
      // Another request of this server is being authorized: its tokens will do for this one.
      await running;
      return true;
    }
    const sent = this.known.get(resource)?.tokens.accessToken;
    const held = await this.held(resource, true);
    // The store holds other tokens than those refused (another process refreshed or logged in).
    if (held && held.tokens.accessToken !== sent && context.attempt === 0) return true;
    if (response.status === 403) {
      if (challenge?.get('error') !== 'insufficient_scope') return false;
      const limit = this.options.maxStepUps ?? 2;
      if (context.stepUps >= limit)
        throw new OAuthError(
          'step_up_limit',
          `${resource} still answers 403 insufficient_scope after ${limit} step-up authorizations` +
            (challenge.get('scope') ? ` (it asks for ${challenge.get('scope')})` : ''),
          { issuer: held?.key.issuer },
        );
      if (!this.interactive) {
        // No one to ask for more: say what a new authorization must ask for.
        const wanted = [
          ...new Set(`${held?.tokens.scope ?? ''} ${challenge.get('scope') ?? ''}`.split(' ')),
        ]
          .filter((s) => s !== '')
          .join(' ');
        throw new OAuthError(
          'insufficient_scope',
          `${resource} refuses the request for lack of scope` +
            (challenge.get('scope') ? ` (it asks for "${challenge.get('scope')}")` : '') +
            ', and this client cannot ask for more without the user',
          { issuer: held?.key.issuer, ...(wanted !== '' ? { scope: wanted } : {}) },
        );
      }
    } else if (context.attempt === 0 && held?.tokens.refreshToken) {
      const tokens = held.tokens;
      const refreshed = await this.single(resource, () =>
        this.refresh(held.key, tokens, context.signal),
      );
      if (refreshed) return true;
    } else if (context.attempt >= 2) {
      throw new OAuthError(
        'unauthorized',
        `${resource} refuses the access token it was just issued (HTTP 401)`,
        { issuer: held?.key.issuer },
      );
    }
    await this.single(resource, () =>
      this.authorizeAt(endpoint, {
        resourceMetadata: challenge?.get('resource_metadata'),
        scope: challenge?.get('scope'),
        held: held?.tokens.scope,
        signal: context.signal,
      }),
    );
    return true;
  }

  /**
   * Authorizes access to the MCP server at `serverUrl` now (what `toolwire login` does): sends
   * it one unauthenticated request to read its challenge, then runs discovery and the user's
   * authorization. A server that does not ask for authorization is still looked up by its
   * resource metadata.
   */
  async authorize(
    serverUrl: URL | string,
    options: { scopes?: readonly string[]; signal?: AbortSignal } = {},
  ): Promise<AuthorizationResult> {
    const endpoint = new URL(serverUrl);
    const probe = await probeServer(this.options.fetch ?? fetch, endpoint, {
      clientName: this.registration.description.clientName,
      signal: options.signal,
    });
    const challenge = bearerChallenge(probe.challenge);
    return this.single(resourceKeyOf(endpoint), () =>
      this.authorizeAt(endpoint, {
        resourceMetadata: challenge?.get('resource_metadata'),
        scope: options.scopes?.join(' ') ?? challenge?.get('scope'),
        held: undefined,
        signal: options.signal,
        // A server that did not answer 401 must say, in metadata, that it takes tokens.
        unprotected: probe.status === 401 ? undefined : probe.status,
      }),
    );
  }

  /**
   * Logs out of the MCP server at `serverUrl`: forgets the tokens held for it, then revokes them
   * at the authorization server that issued them (see {@link revoke}; not with `revoke: false`).
   * Resolves with what was removed and how its revocation went; a revocation that fails does not
   * bring the tokens back.
   */
  async forget(
    serverUrl: URL | string,
    options: { revoke?: boolean; signal?: AbortSignal } = {},
  ): Promise<ForgottenTokens[]> {
    const resource = resourceKeyOf(serverUrl);
    const take = async (): Promise<Held | undefined> => {
      const issuer = await this.store.getIssuerOf(resource);
      if (issuer === undefined) return undefined;
      const key = { issuer, resource };
      const tokens = await this.store.getTokens(key);
      if (!tokens) return undefined;
      await this.drop(key);
      return { key, tokens };
    };
    // Read and dropped in one turn: not tokens another process refreshed in between.
    const taken = await (this.store.exclusive ? this.store.exclusive(take) : take());
    if (!taken) return [];
    if (options.revoke === false) return [taken.key];
    const revocation = await this.revoke(taken.key, taken.tokens, { signal: options.signal });
    return [{ ...taken.key, revocation }];
  }

  /**
   * Revokes tokens at the authorization server that issued them (RFC 7009), when its metadata
   * advertises a `revocation_endpoint`: the refresh token, then the access token, the client
   * authenticated as registered there (the store's registration, or `preRegistered`). Never
   * throws: a revocation that fails or cannot be sent resolves with `failed` and why.
   */
  async revoke(
    key: TokenKey,
    tokens: StoredTokens,
    options: { signal?: AbortSignal | undefined } = {},
  ): Promise<Revocation> {
    return revokeHeld(
      {
        http: await this.http,
        server: (issuer) => this.serverOf(issuer, options.signal),
        client: (issuer) => this.knownClient(issuer),
      },
      { key, tokens, signal: options.signal },
    );
  }

  /** The metadata of an authorization server, discovered once. */
  private async serverOf(issuer: string, signal?: AbortSignal): Promise<AuthorizationServer> {
    const known = this.servers.get(issuer);
    if (known) return known;
    const server = await discoverAuthorizationServer(await this.http, issuer, signal);
    this.servers.set(issuer, server);
    return server;
  }

  /**
   * The tokens held for an MCP server, with their key: from this client's memory of them (a
   * store such as the credentials file is read once, not on every request), or from the store
   * when `fresh` (a refusal: another process may have refreshed or replaced them).
   */
  private async held(resource: string, fresh = false): Promise<Held | undefined> {
    if (!fresh) {
      const known = this.known.get(resource);
      if (known !== undefined) return known ?? undefined;
    }
    const issuer = await this.store.getIssuerOf(resource);
    const tokens =
      issuer === undefined ? undefined : await this.store.getTokens({ issuer, resource });
    const held = issuer !== undefined && tokens ? { key: { issuer, resource }, tokens } : null;
    this.known.set(resource, held);
    return held ?? undefined;
  }

  /** Keeps tokens in the store and in this client's memory. */
  private async keep(key: TokenKey, tokens: StoredTokens): Promise<void> {
    await this.store.setTokens(key, tokens);
    this.known.set(key.resource, { key, tokens });
  }

  /** Drops tokens from the store and from this client's memory. */
  private async drop(key: TokenKey): Promise<void> {
    await this.store.deleteTokens(key);
    this.known.delete(key.resource);
  }

  /** Runs `task` unless one is running for `resource`, in which case its result is shared. */
  private single<T>(resource: string, task: () => Promise<T>): Promise<T> {
    const running = this.inFlight.get(resource) as Promise<T> | undefined;
    if (running) return running;
    const started = task().finally(() => this.inFlight.delete(resource));
    this.inFlight.set(resource, started);
    return started;
  }

  /**
   * Refreshes tokens; undefined (and the tokens forgotten) when the server will not (the refresh
   * token expired or was revoked): the next 401 then starts an authorization. Runs under the
   * store's exclusive lock when it has one, and reads the tokens again first: tokens another
   * process (or request) refreshed meanwhile are used as they are, since a refresh token is
   * used once (a server that rotates them revokes the grant when one comes back).
   */
  private async refresh(
    key: TokenKey,
    tokens: StoredTokens,
    signal: AbortSignal | undefined,
  ): Promise<StoredTokens | undefined> {
    if (tokens.refreshToken === undefined) return undefined;
    const run = () => this.refreshHeld(key, tokens, signal);
    return this.store.exclusive ? this.store.exclusive(run, { signal }) : run();
  }

  /** {@link refresh}, once the lock is held. */
  private async refreshHeld(
    key: TokenKey,
    tokens: StoredTokens,
    signal: AbortSignal | undefined,
  ): Promise<StoredTokens | undefined> {
    const current = await this.store.getTokens(key);
    if (!current) {
      // Forgotten meanwhile (a logout, a failed refresh elsewhere): not brought back.
      this.known.set(key.resource, null);
      return undefined;
    }
    if (current.accessToken !== tokens.accessToken && !refreshDue(current, this.refreshSkewMs)) {
      this.known.set(key.resource, { key, tokens: current });
      return current;
    }
    const refreshToken = current.refreshToken;
    if (refreshToken === undefined) return undefined;
    const http = await this.http;
    try {
      const server = await this.serverOf(key.issuer, signal);
      const client = await this.knownClient(key.issuer);
      if (!client) throw new OAuthError('login_required', `No registration with ${key.issuer}`);
      const fresh = await requestTokens(
        http,
        { server, client, resource: current.resource ?? key.resource },
        { grant: { grant_type: 'refresh_token', refresh_token: refreshToken }, signal },
      );
      // The server may keep the refresh token (RFC 6749 §6): the old one then stays in use.
      const kept: StoredTokens = {
        ...fresh,
        ...(fresh.refreshToken === undefined ? { refreshToken } : {}),
        ...(fresh.scope === undefined && current.scope !== undefined
          ? { scope: current.scope }
          : {}),
        ...(current.resource !== undefined ? { resource: current.resource } : {}),
      };
      await this.keep(key, kept);
      return kept;
    } catch (error) {
      if (signal?.aborted) throw error;
      if (!(error instanceof OAuthError)) throw error;
      await this.drop(key);
      return undefined;
    }
  }

  /** The registration kept for an issuer, or the pre-registered client meant for it. */
  private async knownClient(issuer: string): Promise<StoredClient | undefined> {
    const pre = this.registration.preRegistered;
    if (pre && (pre.issuer === undefined || pre.issuer === issuer)) {
      const server = this.servers.get(issuer);
      if (server) return obtainClient(await this.context(), server, { uri: '', scope: undefined });
    }
    return this.store.getClient(issuer);
  }

  private async context() {
    return { http: await this.http, store: this.store, options: this.registration };
  }

  /** Discovery, registration, the user's authorization and the code exchange, for one server. */
  private async authorizeAt(
    endpoint: URL,
    input: {
      resourceMetadata: string | undefined;
      scope: string | undefined;
      held: string | undefined;
      signal: AbortSignal | undefined;
      /** The status of a probe that was not refused 401. */
      unprotected?: number | undefined;
    },
  ): Promise<AuthorizationResult> {
    const resource = resourceKeyOf(endpoint);
    const { openAuthorizationUrl: open, redirectReceiver: receiver } = this.options;
    if (!open || !receiver)
      throw new OAuthError(
        'login_required',
        `${resource} requires authorization, and no usable tokens are held for it`,
      );
    const http = await this.http;
    const metadata = await discoverResource(http, endpoint, {
      fromChallenge: input.resourceMetadata,
      signal: input.signal,
    });
    if (!metadata && input.unprotected !== undefined)
      throw new OAuthError(
        'not_protected',
        `${resource} did not ask for authorization (HTTP ${input.unprotected}) and publishes no ` +
          'protected resource metadata: there is nothing to log in to',
      );
    const server = metadata
      ? await discoverAuthorizationServer(
          http,
          metadata.authorizationServers[0] as string,
          input.signal,
        )
      : await legacyAuthorizationServer(http, endpoint, input.signal);
    this.servers.set(server.issuer, server);
    // The resource parameter: the metadata's own resource (RFC 9728), else the endpoint.
    const resourceParameter = metadata?.resource ?? resource;
    const previous = await this.store.getIssuerOf(resource);
    if (previous !== undefined && previous !== server.issuer)
      // The server moved to another authorization server: its tokens are of no use there.
      await this.drop({ issuer: previous, resource });
    const scope = selectScope({
      configured: this.options.scopes,
      challenged: input.scope,
      resourceScopes: metadata?.scopesSupported,
      held: previous === server.issuer ? input.held : undefined,
      serverScopes: server.scopesSupported,
      offlineAccess: this.options.offlineAccess ?? true,
    });
    const redirectUri = await receiver.start();
    const client = await obtainClient(await this.context(), server, {
      uri: redirectUri,
      scope,
      signal: input.signal,
    });
    // A pre-registered client is kept too (never its secret, which stays the application's), so
    // that a later client without the option (`toolwire list` after `login --client-id`) can
    // refresh the tokens it was issued.
    if (client.registration === 'pre-registered') {
      const { clientSecret: _secret, ...kept } = client;
      await this.store.setClient(server.issuer, kept);
    }
    const code = await obtainCode(
      {
        open,
        receiver,
        timeoutMs: this.options.authorizationTimeoutMs ?? 300_000,
        policy: http.policy,
      },
      { server, client, redirectUri },
      { resource: resourceParameter, scope, signal: input.signal },
    );
    const tokens = await requestTokens(
      http,
      { server, client, resource: resourceParameter },
      {
        grant: {
          grant_type: 'authorization_code',
          code: code.code,
          code_verifier: code.verifier,
          redirect_uri: code.redirectUri,
        },
        scope: undefined,
        signal: input.signal,
      },
    );
    const key = { issuer: server.issuer, resource };
    const kept: StoredTokens = {
      ...tokens,
      ...(tokens.scope === undefined && scope !== undefined ? { scope } : {}),
      resource: resourceParameter,
    };
    await this.store.setIssuerOf(resource, server.issuer);
    await this.keep(key, kept);
    return {
      issuer: server.issuer,
      resource,
      scope: kept.scope,
      expiresAt: kept.expiresAt,
      hasRefreshToken: kept.refreshToken !== undefined,
      registration: client.registration,
    };
  }
}

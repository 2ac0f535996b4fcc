/**
 * @module The pluggable pieces of toolwire's OAuth 2.1 client (the client side of MCP
 * authorization): where credentials are kept, how the user is sent to the authorization server,
 * and how the redirect back is received. The flow itself (discovery, registration, PKCE, token
 * requests, refresh, step-up) uses only these interfaces, so it runs wherever `fetch` and Web
 * Crypto do; Node implementations of the pieces live beside it.
 */

/** Tokens as the token endpoint issued them, with their expiry made absolute. */
export interface StoredTokens {
  readonly accessToken: string;
  /** `Bearer` (the only type MCP uses). */
  readonly tokenType: string;
  /** When the access token expires, in milliseconds since the epoch; undefined when not said. */
  readonly expiresAt?: number;
  /**
   * The access token's lifetime in seconds, as issued (`expires_in`): a token living less than
   * the refresh window is refreshed when a third of it is left, not on every request.
   */
  readonly expiresIn?: number;
  /** Present only when the authorization server issued one (never assumed). */
  readonly refreshToken?: string;
  /** The scopes granted, space-separated, as the token response said (else as requested). */
  readonly scope?: string;
  /** The RFC 8707 `resource` they were issued for (sent again when they are refreshed). */
  readonly resource?: string;
}

/** A client's registration with one authorization server. */
export interface StoredClient {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** How the client authenticates at the token endpoint. */
  readonly tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post' | 'none';
  /** When a dynamically registered secret expires (ms since the epoch); undefined: never. */
  readonly clientSecretExpiresAt?: number;
  /** The redirect URIs the registration holds. */
  readonly redirectUris?: readonly string[];
  /** How the client was registered (a pre-registered one is never replaced). */
  readonly registration: 'pre-registered' | 'metadata-document' | 'dynamic';
}

/** What tokens are kept under: the authorization server that issued them and the resource. */
export interface TokenKey {
  /** The authorization server's `issuer`, exactly as its metadata states it. */
  readonly issuer: string;
  /** The protected resource's canonical URI (RFC 8707 `resource`). */
  readonly resource: string;
}

/**
 * Where credentials live. Keyed by issuer (clients) and by issuer and resource (tokens): a token
 * or a registration is never used with another authorization server. Implementations: in memory
 * (the default) and a file (0600) for the command line.
 */
export interface OAuthStore {
  getTokens(key: TokenKey): Promise<StoredTokens | undefined>;
  setTokens(key: TokenKey, tokens: StoredTokens): Promise<void>;
  deleteTokens(key: TokenKey): Promise<void>;
  getClient(issuer: string): Promise<StoredClient | undefined>;
  setClient(issuer: string, client: StoredClient): Promise<void>;
  deleteClient(issuer: string): Promise<void>;
  /** The issuer last used for a resource, so that a change of authorization server is noticed. */
  getIssuerOf(resource: string): Promise<string | undefined>;
  setIssuerOf(resource: string, issuer: string): Promise<void>;
  /**
   * Optional: runs `task` while no other user of the store (another process sharing a file)
   * runs one; the store's own methods called from `task` run at once. The client refreshes
   * tokens inside it, reading them again first, so that a refresh token is used once even by
   * several processes (an authorization server that rotates refresh tokens revokes the grant
   * when one is used twice). Without it, refreshes are single within one OAuthClient.
   */
  exclusive?<T>(task: () => Promise<T>, options?: { signal?: AbortSignal | undefined }): Promise<T>;
}

/**
 * Sends the user to the authorization URL (a browser, a printed link). Called only with an
 * `https:` URL, or `http:` on a loopback host when the application allows loopback http.
 */
export type OpenAuthorizationUrl = (url: URL) => void | Promise<void>;

/** The query of the redirect back from the authorization server (`code`, `state`, `iss`...). */
export type RedirectParameters = URLSearchParams;

/**
 * Receives the redirect back from the authorization server: for a local application, a one-shot
 * HTTP listener on 127.0.0.1 (RFC 8252 loopback redirect).
 */
export interface RedirectReceiver {
  /**
   * Starts listening (if needed) and says the redirect URI to register and send; the same until
   * `close()`.
   */
  start(): Promise<string>;
  /** Waits for one redirect and answers the browser with a short page; rejects on `signal`. */
  wait(signal?: AbortSignal): Promise<RedirectParameters>;
  /** Stops listening. */
  close(): Promise<void>;
}

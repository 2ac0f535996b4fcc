/**
 * @module The options of OAuthClient, and what its `authorize` and `forget` resolve with.
 */
import type { PreRegisteredClient } from './registration.js';
import type { Revocation } from './revocation.js';
import type {
  OAuthStore,
  OpenAuthorizationUrl,
  RedirectReceiver,
  StoredClient,
  TokenKey,
} from './types.js';
import type { HostResolver } from './networkPolicy.js';

/** Options of OAuthClient. */
export interface OAuthClientOptions {
  /** Where tokens and registrations are kept. Default: memory. */
  store?: OAuthStore;
  /**
   * The fetch for metadata, registration and token requests. Default: under Node, its http and
   * https connecting to the addresses the network check resolved (no second DNS lookup); else
   * the global fetch. A fetch of your own resolves host names itself: pin its connections to
   * the addresses `resolveHost` answers if DNS rebinding matters to you.
   */
  fetch?: typeof fetch;
  /** The client's name for registration and consent screens. Default `toolwire`. */
  clientName?: string;
  clientUri?: string;
  softwareId?: string;
  softwareVersion?: string;
  /** Credentials registered with the authorization server beforehand (tried first). */
  preRegistered?: PreRegisteredClient;
  /** The https URL of this client's Client ID Metadata Document (used when the server supports them). */
  clientMetadataUrl?: string;
  /** Dynamic Client Registration when nothing else applies. Default true. */
  dynamicRegistration?: boolean;
  /** The scopes to ask for, instead of the challenge's or the resource's. */
  scopes?: readonly string[];
  /** Ask for `offline_access` (a refresh token) when the authorization server lists it. Default true. */
  offlineAccess?: boolean;
  /**
   * Sends the user to the authorization URL. Without it (and a redirect receiver) the client
   * never starts an authorization: it uses and refreshes the tokens in the store, and a 401 it
   * cannot answer fails with reason `login_required`.
   */
  openAuthorizationUrl?: OpenAuthorizationUrl;
  /** Receives the redirect back (with `openAuthorizationUrl`). */
  redirectReceiver?: RedirectReceiver;
  /** Allow `http:` endpoints and addresses on loopback hosts (development). Default false. */
  allowLoopbackHttp?: boolean;
  /** Allow fetching private, loopback and link-local addresses. Default false. */
  allowPrivateNetwork?: boolean;
  /**
   * Resolves host names for the address check; the default fetch then connects to the addresses
   * it answered. Default: the runtime's (Node's dns.lookup).
   */
  resolveHost?: HostResolver;
  /** Step-up authorizations for one request before it fails. Default 2. */
  maxStepUps?: number;
  /** How long the user has to authorize. Default 300 000 ms. */
  authorizationTimeoutMs?: number;
  /**
   * Refresh this long before the access token expires. Default 60 000 ms; at most a third of the
   * lifetime the token was issued with (`expires_in`), so that a short-lived token is not
   * refreshed on every request.
   */
  refreshSkewMs?: number;
}

/** What an authorization obtained. */
export interface AuthorizationResult {
  readonly issuer: string;
  /** The MCP server the tokens are kept for. */
  readonly resource: string;
  readonly scope: string | undefined;
  readonly expiresAt: number | undefined;
  readonly hasRefreshToken: boolean;
  readonly registration: StoredClient['registration'];
}

/** Tokens OAuthClient.forget removed, and how their revocation went. */
export interface ForgottenTokens extends TokenKey {
  /** Absent with `revoke: false`. */
  readonly revocation?: Revocation;
}

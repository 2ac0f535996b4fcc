/**
 * @module `toolwire/http`: Streamable HTTP (and the 2024-11-05 HTTP+SSE endpoints) as one
 * web-standard handler for an McpServer, its event store, and the fetch-based client transports.
 * Runtime-neutral: Node's `http` server is wired by `toolwire/node`.
 */
import type { McpServer } from './server/mcpServer.js';
import type { ProtocolVersion } from './protocol/versions.js';
import {
  StreamableHttpHandler,
  type StreamableHttpOptions,
} from './transports/http/server/streamableHttp.js';

/** Options of {@link createHttpHandler}: everything but the wiring to the server. */
export type HttpHandlerOptions = Omit<
  StreamableHttpOptions,
  'connect' | 'protocolVersions' | 'toolScopes' | 'modern'
>;

/** A Streamable HTTP handler serving `server`: `handler.fetch(request)` answers one request. */
export function createHttpHandler(
  server: McpServer,
  options: HttpHandlerOptions = {},
): StreamableHttpHandler {
  return new StreamableHttpHandler({
    ...options,
    protocolVersions: server.protocolVersions,
    ...(server.modernFront ? { modern: server.modernFront } : {}),
    toolScopes: (name) => server.toolScopes(name),
    connect: (transport, o) =>
      server.connect(transport, {
        ...(o.sessionId !== undefined ? { sessionId: o.sessionId } : {}),
        ...(o.identity !== undefined ? { identity: o.identity } : {}),
        ...(o.clientAddress !== undefined ? { clientAddress: o.clientAddress } : {}),
        // The handler checked it against protocolVersions already.
        ...(o.assumeVersion !== undefined
          ? { assumeVersion: o.assumeVersion as ProtocolVersion }
          : {}),
        ...(o.transient !== undefined ? { transient: o.transient } : {}),
        ...(o.restore !== undefined ? { restore: o.restore } : {}),
        ...(o.persist !== undefined ? { persist: o.persist } : {}),
      }),
  });
}

export { StreamableHttpHandler } from './transports/http/server/streamableHttp.js';
export type { OAuthOptions } from './transports/http/server/auth/resourceMetadata.js';
export type {
  TokenVerification,
  TokenVerifier,
  VerifyContext,
} from './transports/http/server/auth/tokenVerifier.js';
export {
  DEFAULT_JWT_ALGORITHMS,
  jwtVerifier,
  type JwtTokenVerifier,
  type JwtVerifierOptions,
} from './transports/http/server/auth/jwtVerifier.js';
export {
  introspectionVerifier,
  type IntrospectionVerifierOptions,
} from './transports/http/server/auth/introspectionVerifier.js';
export type { StreamableHttpOptions } from './transports/http/server/streamableHttp.js';
export type {
  ConnectSession,
  SessionHandle,
} from './transports/http/server/sessions/sessionRegistry.js';
export type {
  ClusterBus,
  ClusterMessage,
  FollowedReplay,
  HttpCluster,
  SessionDirectory,
  SessionRecord,
  SharedEventStore,
} from './transports/http/server/sessions/cluster/cluster.js';
export {
  MemoryClusterHub,
  MemorySessionDirectory,
} from './transports/http/server/sessions/cluster/memoryCluster.js';
export type { LegacySseOptions } from './transports/http/server/legacySse.js';
export type { OriginPolicy } from './transports/http/server/requestGuards.js';
export { parseEventId } from './transports/http/server/sessions/eventStore.js';
export type {
  EventStore,
  Replay,
  StoredEvent,
} from './transports/http/server/sessions/eventStore.js';
export { MemoryEventStore } from './transports/http/server/sessions/memoryEventStore.js';
export type { MemoryEventStoreOptions } from './transports/http/server/sessions/memoryEventStore.js';
export { StreamableHttpClientTransport } from './transports/http/client/streamableClient.js';
export { HttpStatusError } from './transports/http/client/httpStatusError.js';
export type { StreamableHttpClientOptions } from './transports/http/client/streamableClientOptions.js';
export { ConnectionError } from './transports/http/client/networkError.js';
export { LegacySseClientTransport } from './transports/http/client/legacySseClient.js';
export type { LegacySseClientOptions } from './transports/http/client/legacySseClient.js';
export { HttpClientTransport } from './transports/http/client/httpClient.js';
export type { HttpClientOptions, HttpTransportKind } from './transports/http/client/httpClient.js';
export type { HeadersSource } from './transports/http/client/clientHeaders.js';
export { RedirectError } from './transports/http/client/redirects.js';
export type { FollowRedirects, RedirectOptions } from './transports/http/client/redirects.js';
export { OAuthClient, resourceKeyOf } from './oauthClient/oauthClient.js';
export type {
  AuthorizationResult,
  ForgottenTokens,
  OAuthClientOptions,
} from './oauthClient/oauthClient.js';
export type { Revocation } from './oauthClient/revocation.js';
export { OAuthError } from './oauthClient/oauthError.js';
export type { OAuthFailure } from './oauthClient/oauthError.js';
export { MemoryOAuthStore } from './oauthClient/memoryStore.js';
export type {
  ChallengeContext,
  HttpAuthorization,
} from './transports/http/client/httpAuthorization.js';
export type { HostResolver } from './oauthClient/networkPolicy.js';
export type {
  ClientDescription,
  PreRegisteredClient,
  TokenEndpointAuthMethod,
} from './oauthClient/registration.js';
export type {
  OAuthStore,
  OpenAuthorizationUrl,
  RedirectParameters,
  RedirectReceiver,
  StoredClient,
  StoredTokens,
  TokenKey,
} from './oauthClient/types.js';

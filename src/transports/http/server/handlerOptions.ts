/**
 * @module The options of the Streamable HTTP handler (streamableHttp.ts) and the shapes its
 * callbacks see: the limits, the DNS-rebinding policy, authentication, client addresses, the
 * event store and the cluster.
 */
import type { Identity } from '../../../jsonrpc/transport.js';
import type { OAuthOptions } from './auth/resourceMetadata.js';
import type { HttpCluster } from './sessions/cluster/cluster.js';
import type { EventStore } from './sessions/eventStore.js';
import type { HttpExchange, HttpReply } from './exchange.js';
import type { LegacySseOptions } from './legacySse.js';
import type { StatelessEndpoint } from './statelessEndpoint.js';
import type { OriginPolicy } from './requestGuards.js';
import type { ConnectSession } from './sessions/sessionRegistry.js';

/** What `authenticate` sees of a request. */
export type AuthRequest = Pick<HttpExchange, 'method' | 'pathname' | 'header'>;

/** What {@link StreamableHttpOptions.clientAddress} sees of a request. */
export type AddressRequest = Pick<HttpExchange, 'method' | 'pathname' | 'header' | 'clientAddress'>;

/** What `authenticate` answers: the caller, nobody in particular, or a reply that refuses (401...). */
export type AuthResult = Identity | undefined | HttpReply;

/** Options of the Streamable HTTP handler (`StreamableHttpHandler`). */
export interface StreamableHttpOptions {
  /** Starts the server side of a session (see `toolwire/http`'s `createHttpHandler`). */
  connect: ConnectSession;
  /** The 2025 revisions the server accepts in `MCP-Protocol-Version` (sessions by `initialize`). */
  protocolVersions: readonly string[];
  /**
   * The server's 2026-07-28 front: a POST whose `MCP-Protocol-Version` is not one of
   * `protocolVersions` is served by it, on its own (no session). Absent: the 2025 era only.
   */
  modern?: StatelessEndpoint;
  /** The MCP endpoint path. Default `/mcp`. */
  path?: string;
  /** No sessions: every POST is served on its own, GET and DELETE answer 405. Default false. */
  stateless?: boolean;
  /** DNS-rebinding protection (Host and Origin checks). Default: loopback only. */
  origins?: OriginPolicy;
  /** Largest request body. Default 4 MiB. */
  maxBodyBytes?: number;
  /** Deepest JSON nesting accepted. Default 64. */
  maxDepth?: number;
  /** Most live sessions; more initializations get 503. Default 10 000. */
  maxSessions?: number;
  /**
   * Most sessions one principal may hold on this instance: an authenticated caller by its
   * identity, an anonymous one by its client address (see `clientAddress`); more initializations
   * get 429. Counts the sessions initialized here (Streamable HTTP and HTTP+SSE together), not
   * those another instance of a cluster created and this one serves. Default 100.
   */
  maxSessionsPerPrincipal?: number;
  /**
   * A session without requests (and nothing in flight) for this long is ended. An open GET stream
   * does not keep it alive: its connection is ended at that point, and the session lives on only
   * if the client reconnects. Default 30 min.
   */
  sessionIdleMs?: number;
  /**
   * Where SSE events wait for resumption, and for a client that reads slowly. Default: in memory
   * (`MemoryEventStore`: per stream, responses kept, progress coalesced, at most 1000
   * notifications and 1 MiB of them; dropping any is reported once per stream through `onerror`).
   */
  eventStore?: EventStore;
  /** The `retry` announced on SSE streams, in ms. Default 1000. */
  retryMs?: number;
  /**
   * `adaptive` (default): JSON when a request's response is ready before anything else must be
   * sent, SSE otherwise (or after `sseAfterMs`). `sse`: always SSE.
   */
  responseMode?: 'adaptive' | 'sse';
  /** In adaptive mode, open SSE (with a resumable event id) when a response takes longer. Default 1000 ms. */
  sseAfterMs?: number;
  /**
   * The network address of the client, by which callers without an identity are rate-limited
   * and their sessions counted (`maxSessionsPerPrincipal`). Default: the socket's peer address. Behind a reverse proxy every request comes from the proxy:
   * return the address the proxy reports (e.g. the last hop of `X-Forwarded-For` it sets), and
   * only for a proxy you trust.
   */
  clientAddress?: (request: AddressRequest) => string | undefined;
  /**
   * Establishes the caller; return a reply (e.g. `{ status: 401, headers: {...} }`) to refuse.
   * For OAuth access tokens use `oauth` instead (not both).
   */
  authenticate?: (request: AuthRequest) => AuthResult | Promise<AuthResult>;
  /**
   * Serve as an OAuth 2.1 resource server (MCP authorization): the Protected Resource Metadata
   * at its well-known URIs, a verified Bearer token on every MCP request (401/403 challenges
   * otherwise), the scopes of each tool called, sessions bound to their token's issuer, subject
   * and client. docs/authorization.md.
   */
  oauth?: OAuthOptions;
  /**
   * The scopes a tool needs, by name (wired by `createHttpHandler` to the server's `toolScopes`):
   * with `oauth`, a `tools/call` of a tool the caller lacks the scopes for is answered 403.
   */
  toolScopes?: (name: string) => readonly string[] | undefined;
  /** The 2024-11-05 HTTP+SSE endpoints. Default `{ ssePath: '/sse', messagesPath: '/messages' }`. */
  legacy?: LegacySseOptions | false;
  /** Faults that did not fail a request. Default: stderr. */
  onerror?: (error: unknown) => void;
  /**
   * Share sessions with other instances behind a load balancer (see cluster.ts; `toolwire/redis`
   * provides one). Its event store replaces `eventStore`. The 2024-11-05 endpoints stay
   * per-instance: old clients need sticky routing.
   */
  cluster?: HttpCluster;
}

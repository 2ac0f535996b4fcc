/**
 * @module The transport contract: start/send/close plus three callbacks. Framing and decoding
 * live in the transport; correlation, cancellation and timeouts live in {@link Connection}.
 */
import type { EnvelopeHint } from './decode.js';
import type { RpcError } from './errors.js';
import type { JsonRpcMessage, RequestId } from './types.js';

/**
 * Who is calling, as the transport (or the code that accepted the connection) establishes it:
 * an authenticated user over HTTP, the local user over stdio. Servers use it for access control,
 * rate limits and task ownership.
 */
export interface Identity {
  /**
   * A stable identifier of the principal (user, service account, API key id...): rate limits and
   * session quotas count by it; sessions and tasks belong to it together with `issuer`, `subject`
   * and `clientId`. Verified OAuth access tokens give `<issuer> <subject>` (a subject is unique
   * only within its issuer).
   */
  readonly id: string;
  /** Granted scopes, when the authentication scheme has them. */
  readonly scopes?: readonly string[];
  /** Any further verified claims. */
  readonly claims?: Readonly<Record<string, unknown>>;
  /** OAuth: the issuer of the access token (`iss`). */
  readonly issuer?: string;
  /** OAuth: the token's subject (`sub`), the resource owner or the client itself. */
  readonly subject?: string;
  /**
   * OAuth: the client the token was issued to (`client_id`, else `azp`). Sessions and tasks
   * belong to their principal and client together: another client of the same user cannot use
   * or see them.
   */
  readonly clientId?: string;
  /** When the credential stops being valid, in milliseconds since the epoch. */
  readonly expiresAt?: number;
}

/** What the transport knows about one incoming message beyond its content. */
export interface MessageInfo {
  /** The caller's identity for this message, when the transport authenticates per message. */
  readonly identity?: Identity;
  /**
   * Where the message came from on the network (HTTP: the client's address, an IPv6 one cut to
   * its /64). Anonymous callers are rate-limited by it.
   */
  readonly clientAddress?: string;
  /**
   * The socket the message came on (HTTP; a Node socket is one), for telemetry: OpenTelemetry's
   * `client.address` and `client.port`. The peer as the network shows it (a proxy, say): never
   * for access decisions.
   */
  readonly peer?: PeerAddress | undefined;
  /** The HTTP version of the request that carried the message (`1.1`, `2.0`), over HTTP. */
  readonly httpVersion?: string | undefined;
}

/** The remote end of a connection (the shape of a Node socket's fields). */
export interface PeerAddress {
  readonly remoteAddress?: string | undefined;
  readonly remotePort?: number | undefined;
}

/**
 * What a transport knows of the network beyond {@link Transport.networkTransport}, in
 * OpenTelemetry's terms; read by telemetry when a session starts.
 */
export interface TransportNetwork {
  /** `network.protocol.name`: the application protocol carrying the messages (`http`). */
  readonly protocolName?: string;
  /** `network.protocol.version`, when the transport knows it for all of its messages (`1.1`). */
  readonly protocolVersion?: string;
  /** A client transport's `server.address`: the host it was told to reach (name or address). */
  readonly serverAddress?: string;
  /** A client transport's `server.port`. */
  readonly serverPort?: number;
}

/** What a cached result is keyed by besides the request (see {@link Transport.cacheContext}). */
export interface CacheContext {
  /** The endpoint the results come from (HTTP: the URL; stdio: the command line). */
  readonly endpoint: string;
  /**
   * A digest of the credentials the requests carry: `private` results are served only to the
   * same digest. Never the credentials themselves.
   */
  readonly credential: string;
}

/** Options for one outgoing message. */
export interface SendOptions {
  /**
   * The incoming request this message belongs to (a progress notification, a log message, a
   * request to the client made while serving it). Transports that route per request (Streamable
   * HTTP) put it on that request's stream.
   */
  readonly relatedRequestId?: RequestId;
  /**
   * Headers for the HTTP request carrying this message (the `Mcp-Param-*` headers of a stateless
   * `tools/call`), values as they are: HTTP encodes those that a header cannot carry plainly.
   * Other transports ignore them.
   */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A bidirectional message channel. */
export interface Transport {
  /**
   * How messages travel, in OpenTelemetry's `network.transport` terms: `pipe` (stdio), `tcp`
   * (HTTP), `inproc` (in memory). Middleware and telemetry read it; optional.
   */
  readonly networkTransport?: 'pipe' | 'tcp' | 'inproc';
  /** Further network facts for telemetry (HTTP: the protocol and, client side, the server). */
  readonly network?: TransportNetwork | undefined;
  /** Starts receiving. Called once, by the connection. */
  start(): Promise<void>;
  /** Sends one message or a batch. Resolves when the transport has accepted it. */
  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): Promise<void>;
  /** Closes the channel; `onclose` fires once afterwards. */
  close(): Promise<void>;
  /** A decoded message (an object or, for batches, an array), not yet validated. */
  onmessage?: (message: unknown, info?: MessageInfo) => void;
  /**
   * A message that could not be decoded (bad JSON, too deep, too large). `hint` says what could
   * still be read of its envelope, so the connection can address the error.
   */
  ondecodeerror?: (error: RpcError, hint: EnvelopeHint) => void;
  /**
   * The transport lost the response to one of our requests for good (a stream that could not be
   * resumed, a response over the size limit): the connection fails that request at once.
   */
  onfailure?: (requestId: RequestId, error: Error) => void;
  /** The channel is closed. */
  onclose?: () => void;
  /**
   * Why the channel closed, when it closed by itself for a reason the transport knows (a stdio
   * server that exited: its exit status and last stderr lines); read when `onclose` fires. A
   * `closed` LocalError is what pending and later requests fail with; anything else is wrapped
   * in one (`Connection closed: <its message>`, with it as `cause`).
   */
  readonly closeReason?: Error | undefined;
  /** A fault that did not close the channel (a failed write, a bad frame). */
  onerror?: (error: Error) => void;
  /**
   * Ends the connection carrying the stream of `requestId` without ending the stream, so the
   * client reconnects and resumes (Streamable HTTP polling, SEP-1699). Transports without
   * streams leave it out.
   */
  closeStream?(requestId: RequestId): void;
  /**
   * When set, the ids of requests sent on this transport are strings with this prefix. Several
   * server instances sharing one session (Streamable HTTP behind a load balancer) name
   * themselves in their ids, so a client's response reaching another instance is routed back.
   */
  readonly requestIdPrefix?: string;
  /**
   * Stop delivering incoming messages until {@link resumeReceiving} (backpressure: too many
   * requests wait for a handler). Called by the connection; transports that cannot stop reading
   * leave both out, and requests beyond the connection's queue are then refused.
   */
  pauseReceiving?(): void;
  /** Deliver incoming messages again, starting with any held back. */
  resumeReceiving?(): void;
  /**
   * Told the negotiated revision once initialization is done (HTTP sends it as a header). On a
   * stateless revision (`stateless`: 2026-07-28) it is told before the first request, and HTTP
   * also mirrors each message's method and name in headers.
   */
  setProtocolVersion?(version: string | undefined, options?: { stateless?: boolean }): void;
  /**
   * What identifies the server this transport reaches, for remembering which protocol era it
   * speaks (HTTP: the origin; stdio: the command line); undefined when nothing does.
   */
  readonly endpointKey?: string | undefined;
  /**
   * A new transport to the same server, not started (stdio: the same command, a new process).
   * A client whose `server/discover` probe made the server end the connection (a 2025-era
   * server that exits on anything before `initialize`) connects again through it, with
   * `initialize`.
   */
  readonly respawn?: (() => Transport) | undefined;
  /**
   * Where results may be cached and for whom (2026-07-28 cache hints): the endpoint, and a digest
   * of the credentials the transport sends now (HTTP: its `Authorization` and custom headers;
   * stdio: the environment the server gets). Without it, results are cached for this connection
   * only.
   */
  readonly cacheContext?: (() => Promise<CacheContext>) | undefined;
  /** The MCP session id the transport carries (Streamable HTTP `Mcp-Session-Id`), once known. */
  readonly sessionId?: string | undefined;
}

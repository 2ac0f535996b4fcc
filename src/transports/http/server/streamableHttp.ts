/**
 * @module The Streamable HTTP server transport as one handler: POST carries client messages, GET
 * opens or resumes a stream, DELETE ends a session. The 2024-11-05 HTTP+SSE endpoints are served
 * beside it (legacySse.ts). `fetch(Request)` is the web-standard entry; the core, `handle()`, works
 * on a minimal exchange so the Node adapter can skip web streams (see exchange.ts for why).
 */
import { DEFAULT_MAX_DEPTH } from '../../../jsonrpc/decode.js';
import type { Identity } from '../../../jsonrpc/transport.js';
import { DEFAULT_MAX_BODY_BYTES, type BodyResult } from '../shared/body.js';
import { isLoopbackHost } from '../shared/loopback.js';
import { exchangeOf, responseOf } from './adapters/webAdapter.js';
import { OAuthResourceServer } from './auth/resourceServer.js';
import { callerOf, type Caller } from './caller.js';
import { assumedVersion, batchProblem, unsupportedVersionProblem } from './eras/rev2025.js';
import { routesModern } from './eras/rev2026.js';
import { ModernPosts } from './modernPost.js';
import { NO_HEADERS, type HttpExchange, type HttpReply } from './exchange.js';
import type { AuthResult, StreamableHttpOptions } from './handlerOptions.js';
import { failureReply } from './httpStatus.js';
import { decodedBody } from './postBody.js';
import { LegacySseEndpoints } from './legacySse.js';
import { checkMessages, type CheckedPost } from './postMessages.js';
import { acceptsJsonAndSse, acceptsSse, isJsonContentType, OriginGuard } from './requestGuards.js';
import { HttpSessionTransport } from './sessions/httpSession.js';
import { SessionQuota } from './sessions/sessionQuota.js';
import { shuttingDown, StreamableSessions, type Found } from './sessions/streamableSessions.js';

/** A reply now, or one to come. */
type Reply = HttpReply | Promise<HttpReply>;

function defaultReport(error: unknown): void {
  console.error(`[toolwire] http: ${error instanceof Error ? error.message : String(error)}`);
}

/** The answer to a POST of only notifications and responses (shared: replies are not changed). */
const ACCEPTED: HttpReply = Object.freeze({ status: 202, headers: NO_HEADERS });

function isReply(result: AuthResult): result is HttpReply {
  return typeof result === 'object' && 'status' in result;
}

/** An identity (its `id` is a string) rather than a reply refusing the request. */
function isIdentity(result: Identity | HttpReply): result is Identity {
  return typeof (result as Partial<Identity>).id === 'string';
}

export type {
  AddressRequest,
  AuthRequest,
  AuthResult,
  StreamableHttpOptions,
} from './handlerOptions.js';

/** The handler. */
export class StreamableHttpHandler {
  private readonly sessions: StreamableSessions;
  private readonly legacy: LegacySseEndpoints | undefined;
  private readonly path: string;
  /** Reports a fault that did not fail a request by itself (through `onerror`). */
  readonly report: (error: unknown) => void;
  private readonly maxBody: number;
  private readonly guard: OriginGuard;
  private readonly quota: SessionQuota;
  /** The OAuth resource server, with `oauth`. */
  private readonly oauth: OAuthResourceServer | undefined;
  /** The 2026-07-28 POSTs, when the server serves that revision. */
  private readonly modern: ModernPosts | undefined;

  constructor(private readonly options: StreamableHttpOptions) {
    this.path = options.path ?? '/mcp';
    this.report = options.onerror ?? defaultReport;
    if (options.oauth && options.authenticate)
      throw new TypeError('Give either oauth or authenticate, not both');
    this.oauth = options.oauth
      ? new OAuthResourceServer(options.oauth, {
          endpointPath: this.path,
          report: this.report,
          toolScopes: options.toolScopes,
        })
      : undefined;
    this.maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.guard = new OriginGuard(options.origins ?? {});
    this.quota = new SessionQuota(options.maxSessionsPerPrincipal ?? 100);
    this.sessions = new StreamableSessions(options, { quota: this.quota, report: this.report });
    const oauth = this.oauth;
    this.modern = options.modern
      ? new ModernPosts({
          endpoint: options.modern,
          maxBodyBytes: this.maxBody,
          maxDepth: options.maxDepth,
          callScopesProblem:
            oauth && ((classified, identity) => oauth.callScopesProblem(classified, identity)),
          report: this.report,
        })
      : undefined;
    this.legacy =
      options.legacy === false
        ? undefined
        : new LegacySseEndpoints(options.legacy ?? { ssePath: '/sse', messagesPath: '/messages' }, {
            connect: options.connect,
            maxBodyBytes: this.maxBody,
            maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
            maxSessions: options.maxSessions ?? 10_000,
            quota: this.quota,
            report: this.report,
            ...(this.oauth ? { callScopes: this.oauth } : {}),
          });
  }

  /** The path of the MCP endpoint (`/mcp` unless the `path` option says otherwise). */
  get endpointPath(): string {
    return this.path;
  }

  /** Number of live Streamable HTTP sessions. */
  get sessionCount(): number {
    return this.sessions.registry.size;
  }

  /**
   * Called with the address the server listens on (`serveHttp` does): listening beyond loopback
   * with neither `authenticate` nor an explicit `origins.allowedHosts` is reported through
   * `onerror` as a warning, since anyone who can reach the address can call every tool.
   */
  noteListening(host: string): void {
    if (isLoopbackHost(host)) return;
    const authenticates = this.options.authenticate !== undefined || this.oauth !== undefined;
    if (authenticates || this.options.origins?.allowedHosts !== undefined) return;
    this.report(
      new Error(
        `warning: listening on ${host}, which is not a loopback address, with neither authentication nor an allowed-hosts list: anyone who can reach it can call every tool`,
      ),
    );
  }

  /** The web-standard entry: handles one `Request`. Never throws (failures are responses). */
  readonly fetch = async (
    request: Request,
    info: { clientAddress?: string } = {},
  ): Promise<Response> => {
    const exchange = exchangeOf(request, info.clientAddress);
    const reply = await this.handle(exchange, exchange.urlHost);
    try {
      return responseOf(reply);
    } catch (error) {
      // A header value `Headers` refuses (a line break, say, from `authenticate`): a 500.
      const why = error instanceof Error ? error.message : String(error);
      this.report(
        new Error(`A reply could not be written (${why}); answered 500 instead`, { cause: error }),
      );
      return new Response(null, { status: 500 });
    }
  };

  /**
   * The core: answers one exchange. `urlHost` stands in for a missing Host header. Never throws.
   */
  async handle(exchange: HttpExchange, urlHost?: string): Promise<HttpReply> {
    try {
      return await this.route(exchange, urlHost);
    } catch (error) {
      this.report(error);
      return { status: 500, headers: {} };
    }
  }

  /**
   * Graceful shutdown: new requests get 503 at once; requests in flight get up to `graceMs` to
   * finish (their responses are delivered); then every session closes.
   */
  async close(options: { graceMs?: number } = {}): Promise<void> {
    this.sessions.closing = true;
    const registry = this.sessions.registry;
    const deadline = Date.now() + (options.graceMs ?? 10_000);
    while (registry.anyBusy() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await Promise.all([registry.closeAll(), this.legacy?.close()]);
    this.sessions.cluster?.close();
  }

  /**
   * Routes one request. Not async (nor are the steps below, up to the body read): every async
   * function allocates a frame holding all of its locals, on every call, and each `await` costs a
   * turn of the microtask queue; the handler waits only where something is to come.
   */
  private route(exchange: HttpExchange, urlHost: string | undefined): Reply {
    // Public metadata, readable cross-origin: served before the Host/Origin checks.
    const metadata = this.oauth?.metadataRequest(exchange);
    if (metadata) return metadata;
    const refused = this.guard.problem(exchange.header, urlHost, exchange.connection);
    if (refused) return failureReply(refused.failure, refused.message);
    const legacy = this.legacy?.matches(exchange.pathname) ? this.legacy : undefined;
    if (!legacy && exchange.pathname !== this.path)
      return failureReply('notFound', `No MCP endpoint at ${exchange.pathname}`);
    if (this.oauth) return this.authorized(exchange, legacy, this.oauth);
    const authenticate = this.options.authenticate;
    if (!authenticate) return this.dispatch(exchange, legacy, undefined);
    return this.authenticated(exchange, legacy, authenticate);
  }

  /** Every MCP request of an OAuth resource server: its token first, then the request. */
  private authorized(
    exchange: HttpExchange,
    legacy: LegacySseEndpoints | undefined,
    oauth: OAuthResourceServer,
  ): Reply {
    const caller = oauth.authenticate(exchange);
    if (caller instanceof Promise)
      return caller.then((c) => (isIdentity(c) ? this.dispatch(exchange, legacy, c) : c));
    return isIdentity(caller) ? this.dispatch(exchange, legacy, caller) : caller;
  }

  private async authenticated(
    exchange: HttpExchange,
    legacy: LegacySseEndpoints | undefined,
    authenticate: NonNullable<StreamableHttpOptions['authenticate']>,
  ): Promise<HttpReply> {
    const auth = await authenticate(exchange);
    if (auth !== undefined && isReply(auth)) return auth;
    return await this.dispatch(exchange, legacy, auth);
  }

  private dispatch(
    exchange: HttpExchange,
    legacy: LegacySseEndpoints | undefined,
    identity: Identity | undefined,
  ): Reply {
    const closing = this.sessions.closing;
    if (legacy)
      return closing ? shuttingDown() : legacy.handle(exchange, this.callerOf(exchange, identity));
    if (this.modern && routesModern(exchange.header, this.options.protocolVersions))
      return this.modernRequest(exchange, this.modern, identity);
    switch (exchange.method) {
      case 'POST':
        return this.post(exchange, this.callerOf(exchange, identity));
      case 'GET':
        return closing ? shuttingDown() : this.get(exchange, identity);
      case 'DELETE':
        return this.delete(exchange, identity);
      default:
        return failureReply('methodNotAllowed', `${exchange.method} is not supported`, {
          allow: this.options.stateless ? 'POST' : 'GET, POST, DELETE',
        });
    }
  }

  /** A request of the 2026 era: a POST, served on its own; nothing else exists (405). */
  private modernRequest(
    exchange: HttpExchange,
    modern: ModernPosts,
    identity: Identity | undefined,
  ): Reply {
    if (exchange.method !== 'POST')
      return failureReply(
        'methodNotAllowed',
        `${exchange.method} is not part of protocol revision ${String(exchange.header('mcp-protocol-version'))}: POST only`,
        { allow: 'POST' },
      );
    if (this.sessions.closing) return shuttingDown();
    return modern.post(exchange, this.callerOf(exchange, identity));
  }

  /** Who sends the messages of a request: its identity and, for rate limits, its address. */
  private callerOf(exchange: HttpExchange, identity: Identity | undefined): Caller {
    return callerOf(exchange, identity, this.options.clientAddress);
  }

  private versionProblem(exchange: HttpExchange): HttpReply | undefined {
    return unsupportedVersionProblem(exchange, this.options.protocolVersions);
  }

  /** A POST: its headers are checked, its body read, then its messages delivered. */
  private async post(exchange: HttpExchange, caller: Caller): Promise<HttpReply> {
    if (!acceptsJsonAndSse(exchange.header))
      return failureReply(
        'notAcceptable',
        'Accept must list application/json and text/event-stream',
      );
    if (!isJsonContentType(exchange.header))
      return failureReply('unsupportedMediaType', 'Content-Type must be application/json');
    const versionProblem = this.versionProblem(exchange);
    if (versionProblem) return versionProblem;
    const body = await exchange.body(this.maxBody);
    return await this.deliver(exchange, caller, body);
  }

  /** The messages of a POST's body, delivered to their session (created for `initialize`). */
  private deliver(exchange: HttpExchange, caller: Caller, body: BodyResult): Reply {
    const decoded = decodedBody(body, {
      maxBodyBytes: this.maxBody,
      maxDepth: this.options.maxDepth,
    });
    if (!decoded.ok) return decoded.reply;
    const post = checkMessages(decoded.value);
    if (typeof post === 'string') return failureReply('invalidMessage', post);
    const denied = this.oauth?.callScopesProblem(post.classified, caller.identity);
    if (denied) return denied;
    if (post.initialize || this.options.stateless)
      return this.deliverToNewSession(exchange, caller, post);
    const found = this.sessions.find(exchange, caller.identity);
    return found instanceof Promise
      ? found.then((f) => this.deliverToSession(f, caller, post))
      : this.deliverToSession(found, caller, post);
  }

  /** A POST's messages on the session they name. */
  private deliverToSession(found: Found, caller: Caller, post: CheckedPost): Reply {
    if (!('transport' in found)) return found;
    const session = found.transport;
    if (this.sessions.closing && post.requestIds.length > 0) return shuttingDown();
    const batchRefused = post.batch ? batchProblem(found.handle.protocolVersion) : undefined;
    if (batchRefused) return batchRefused;
    if (post.requestIds.length > 0 && found.handle.saturated === true) {
      // Backpressure for a client that pipelines beyond the session's queue: it retries later.
      return failureReply(
        'busy',
        'Too many requests are waiting on this session; retry after the delay given',
        { 'retry-after': '1' },
      );
    }
    for (const id of post.requestIds)
      if (session.hasPending(id))
        return failureReply('conflict', `Request id ${JSON.stringify(id)} is already in use`);
    const cluster = this.sessions.cluster;
    if (cluster && session.sessionId !== undefined) {
      // Responses to another instance's requests, and notifications, also go to the others.
      const local = cluster.route(session.sessionId, post.messages, post.classified);
      if (local.length === 0) return ACCEPTED;
      if (local.length !== post.messages.length)
        return this.receive(session, { ...post, messages: local }, caller);
    }
    return this.receive(session, post, caller);
  }

  /** A POST that starts a session: `initialize`, or any POST in stateless mode. */
  private async deliverToNewSession(
    exchange: HttpExchange,
    caller: Caller,
    post: CheckedPost,
  ): Promise<HttpReply> {
    if (post.initialize && !this.options.stateless) {
      const live = await this.sessions.liveSessionProblem(exchange, caller.identity);
      if (live) return live;
    }
    const assumeVersion = post.initialize ? undefined : assumedVersion(exchange);
    const created = await this.sessions.create(caller, assumeVersion);
    if (!(created instanceof HttpSessionTransport)) return created;
    return await this.receive(created, post, caller);
  }

  private receive(session: HttpSessionTransport, post: CheckedPost, caller: Caller): Reply {
    const reply = session.receive(post.messages, {
      batch: post.batch,
      requestIds: post.requestIds,
      initialize: post.initialize,
      message: caller,
    });
    return reply ?? ACCEPTED;
  }

  private async get(exchange: HttpExchange, identity: Identity | undefined): Promise<HttpReply> {
    if (this.options.stateless)
      return failureReply('methodNotAllowed', 'This server is stateless: no GET stream', {
        allow: 'POST',
      });
    if (!acceptsSse(exchange.header))
      return failureReply('notAcceptable', 'Accept must list text/event-stream');
    const versionProblem = this.versionProblem(exchange);
    if (versionProblem) return versionProblem;
    let found = this.sessions.find(exchange, identity);
    if (found instanceof Promise) found = await found;
    if (!('transport' in found)) return found;
    const result = await found.transport.listen(exchange.header('last-event-id') ?? undefined);
    if (result === 'conflict')
      return failureReply('conflict', 'A GET stream is already open for this session');
    if (result === 'unknown-event')
      return failureReply('badLastEventId', 'Last-Event-ID does not name a stream of this session');
    // The stream ends when the caller's credential does: the client resumes it with a fresh one.
    if (identity?.expiresAt !== undefined && 'sse' in result) result.sse.endAt(identity.expiresAt);
    return result;
  }

  private async delete(exchange: HttpExchange, identity: Identity | undefined): Promise<HttpReply> {
    if (this.options.stateless)
      return failureReply('methodNotAllowed', 'This server is stateless: no sessions to end', {
        allow: 'POST',
      });
    const versionProblem = this.versionProblem(exchange);
    if (versionProblem) return versionProblem;
    let found = this.sessions.find(exchange, identity);
    if (found instanceof Promise) found = await found;
    if (!('transport' in found)) return found;
    const refused = await this.sessions.end(found);
    if (refused) return refused;
    return { status: 200, headers: {} };
  }
}

/**
 * @module The 2024-11-05 HTTP+SSE transport, served beside Streamable HTTP so old clients work: a
 * GET opens the event stream, whose first event (`endpoint`) names the URL to POST messages to;
 * every server message is a `message` event on that stream. The session lives as long as the
 * stream (this transport has no resumption).
 */
import { decodeMessage } from '../../../jsonrpc/decode.js';
import { classifyMessage, type Classified } from '../../../jsonrpc/guards.js';
import { LocalError } from '../../../jsonrpc/errors.js';
import type { Identity, MessageInfo, Transport } from '../../../jsonrpc/transport.js';
import { HTTP_SERVER_NETWORK } from '../shared/network.js';
import type { JsonRpcMessage } from '../../../jsonrpc/types.js';
import { BoundedEvents } from './sessions/boundedEvents.js';
import { SseChannel, type HttpExchange, type HttpReply } from './exchange.js';
import { randomToken } from './sessions/httpSession.js';
import { failureReply } from './httpStatus.js';
import { acceptsSse, isJsonContentType } from './requestGuards.js';
import { principalKey, type SessionQuota } from './sessions/sessionQuota.js';
import { isOwner, ownerOf, type SessionOwner } from './sessions/sessionOwner.js';
import type { ConnectSession, SessionHandle } from './sessions/sessionRegistry.js';
import { formatSseEvent, SSE_HEADERS } from '../shared/sse.js';

/** Where the legacy endpoints live. */
export interface LegacySseOptions {
  /** GET here opens the event stream. */
  ssePath: string;
  /** The `endpoint` event points here; clients POST messages to it. */
  messagesPath: string;
}

/** How often an idle event stream gets a comment, so that a peer that is gone is noticed. */
const KEEP_ALIVE_MS = 30_000;

/**
 * The server side of one legacy session: its transport writes to the GET stream. This transport
 * has no resumption, so what waits for a client that reads slowly waits here, bounded the way
 * the event store bounds a stream: progress coalesced per token, other notifications capped,
 * responses and requests kept.
 */
class LegacySseTransport implements Transport {
  readonly networkTransport = 'tcp' as const;
  readonly network = HTTP_SERVER_NETWORK;
  onmessage?: (message: unknown, info?: MessageInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  ondecodeerror?: Transport['ondecodeerror'];
  private closed = false;
  /** Messages waiting for a congested connection to drain. */
  private readonly backlog = new BoundedEvents();
  private congested = false;
  private waiting = 0;
  private dropReported = false;

  constructor(
    readonly owner: SessionOwner | undefined,
    private readonly channel: SseChannel,
    private readonly report: (error: unknown) => void,
  ) {
    channel.ondrain = () => this.flush();
  }

  async start(): Promise<void> {}

  async send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    if (this.closed) throw new LocalError('closed', 'The SSE stream is closed');
    if (!this.congested) {
      const open = this.channel.write(
        formatSseEvent({ event: 'message', data: JSON.stringify(message) }),
      );
      if (!open) this.congested = true;
      return;
    }
    for (const one of Array.isArray(message) ? message : [message])
      this.backlog.push({ id: '', seq: ++this.waiting, message: one });
    if (this.backlog.dropped > 0 && !this.dropReported) {
      this.dropReported = true;
      this.report(
        new Error(
          'An HTTP+SSE client is not reading its event stream: its oldest waiting notifications are dropped (progress is coalesced, responses are kept)',
        ),
      );
    }
  }

  /** A comment on the stream (ignored by clients): a connection whose peer is gone then fails. */
  keepAlive(): void {
    if (!this.closed && !this.congested) this.channel.write(': keep-alive\n\n');
  }

  /** The connection drained: writes what waited, until it is congested again. */
  private flush(): void {
    this.congested = false;
    const waiting = this.backlog.takeAll();
    for (const [i, event] of waiting.entries()) {
      if (this.congested) {
        // Back in line, in order, for the next drain.
        for (const rest of waiting.slice(i)) this.backlog.push(rest);
        return;
      }
      const open = this.channel.write(
        formatSseEvent({ event: 'message', data: JSON.stringify(event.message) }),
      );
      if (!open) this.congested = true;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.channel.close();
    this.onclose?.();
  }
}

/** The two legacy endpoints and their sessions. */
export class LegacySseEndpoints {
  private readonly sessions = new Map<
    string,
    { transport: LegacySseTransport; handle: SessionHandle }
  >();
  /** Writes a comment on every stream now and then, while there are sessions. */
  private keepAlive: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly paths: LegacySseOptions,
    private readonly options: {
      connect: ConnectSession;
      maxBodyBytes: number;
      maxDepth: number;
      maxSessions: number;
      /** Sessions per principal, shared with the Streamable HTTP sessions. */
      quota: SessionQuota;
      report: (error: unknown) => void;
      /** With OAuth: 403 for a `tools/call` of a tool the caller lacks the scopes for. */
      callScopes?: {
        callScopesProblem(
          classified: readonly Classified[],
          identity: Identity | undefined,
        ): HttpReply | undefined;
      };
    },
  ) {}

  /** True for a path these endpoints serve. */
  matches(pathname: string): boolean {
    return pathname === this.paths.ssePath || pathname === this.paths.messagesPath;
  }

  /** Serves a request to one of the legacy paths. */
  async handle(exchange: HttpExchange, caller: MessageInfo): Promise<HttpReply> {
    if (exchange.pathname === this.paths.ssePath) {
      if (exchange.method !== 'GET')
        return failureReply('methodNotAllowed', 'Open the event stream with GET', { allow: 'GET' });
      return this.open(exchange, caller);
    }
    if (exchange.method !== 'POST')
      return failureReply('methodNotAllowed', 'POST messages here', { allow: 'POST' });
    return this.post(exchange, caller);
  }

  /** Ends every legacy session. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.sessions.values()].map((s) => s.handle.close()));
    this.sessions.clear();
  }

  private async open(exchange: HttpExchange, caller: MessageInfo): Promise<HttpReply> {
    const identity = caller.identity;
    if (!acceptsSse(exchange.header))
      return failureReply('notAcceptable', 'Accept must list text/event-stream');
    if (this.sessions.size >= this.options.maxSessions)
      return failureReply('tooManySessions', 'Too many sessions; try again later');
    const release = this.options.quota.take(principalKey(identity, caller.clientAddress));
    if (!release)
      return failureReply(
        'tooManyCallerSessions',
        `Too many sessions for this caller (at most ${this.options.quota.perPrincipal}): close unused streams`,
      );
    try {
      return await this.start(identity, release);
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Opens the event stream of a new session (counted by `release`). */
  private async start(identity: Identity | undefined, release: () => void): Promise<HttpReply> {
    const sessionId = randomToken(24);
    const channel = new SseChannel();
    // The endpoint event comes first, before any message.
    channel.write(
      formatSseEvent({
        event: 'endpoint',
        data: `${this.paths.messagesPath}?sessionId=${sessionId}`,
      }),
    );
    const transport = new LegacySseTransport(ownerOf(identity), channel, this.options.report);
    const handle = await this.options.connect(transport, {
      sessionId,
      ...(identity ? { identity } : {}),
    });
    // The stream is the session: when the client goes, the session ends; and when the caller's
    // credential expires (the client opens a new session with a fresh one).
    channel.oncancel = () => void handle.close();
    if (identity?.expiresAt !== undefined) channel.endAt(identity.expiresAt);
    // Wrap the connection's close handler (installed by connect) to forget the session too.
    const connectionClosed = transport.onclose;
    transport.onclose = () => {
      this.sessions.delete(sessionId);
      if (this.sessions.size === 0 && this.keepAlive !== undefined) {
        clearInterval(this.keepAlive);
        this.keepAlive = undefined;
      }
      release();
      connectionClosed?.();
    };
    this.sessions.set(sessionId, { transport, handle });
    this.keepAlive ??= setInterval(() => {
      for (const session of this.sessions.values()) session.transport.keepAlive();
    }, KEEP_ALIVE_MS);
    (this.keepAlive as { unref?: () => void }).unref?.();
    return { status: 200, headers: SSE_HEADERS, sse: channel };
  }

  private async post(exchange: HttpExchange, caller: MessageInfo): Promise<HttpReply> {
    const identity = caller.identity;
    const sessionId = exchange.query('sessionId');
    if (!sessionId)
      return failureReply('missingSession', 'The sessionId query parameter is required');
    const session = this.sessions.get(sessionId);
    if (!session || !isOwner(session.transport.owner, identity))
      return failureReply('unknownSession', 'Session not found');
    if (!isJsonContentType(exchange.header))
      return failureReply('unsupportedMediaType', 'Content-Type must be application/json');
    const body = await exchange.body(this.options.maxBodyBytes);
    if (!body.ok) {
      return body.reason === 'too-large'
        ? failureReply('tooLarge', 'The body is too large', { connection: 'close' })
        : failureReply('parse', 'The body is not valid UTF-8');
    }
    const decoded = decodeMessage(body.text, this.options.maxDepth);
    if (!decoded.ok)
      return failureReply(
        decoded.error.code === -32700 ? 'parse' : 'invalidMessage',
        decoded.error.message,
      );
    const callScopes = this.options.callScopes;
    if (callScopes) {
      const value = decoded.value;
      const classified = Array.isArray(value)
        ? value.map(classifyMessage)
        : [classifyMessage(value)];
      const denied = callScopes.callScopesProblem(classified, identity);
      if (denied) return denied;
    }
    session.transport.onmessage?.(decoded.value, caller);
    return { status: 202, headers: { 'content-type': 'text/plain' }, body: 'Accepted' };
  }
}

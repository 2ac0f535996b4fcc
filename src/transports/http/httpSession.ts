/**
 * @module One Streamable HTTP session on the server: the Transport its server session talks to.
 * Every message goes on exactly one stream (never broadcast): a response on the stream of the
 * POST that carried its request, a message related to a request on that request's stream, and
 * anything else on the standalone GET stream (kept for the next GET when none is open).
 */
import { LocalError } from '../../jsonrpc/errors.js';
import type { MessageInfo, SendOptions, Transport } from '../../jsonrpc/transport.js';
import type { JsonRpcMessage, RequestId } from '../../jsonrpc/types.js';
import type { EventStore } from './eventStore.js';
import type { HttpReply } from './exchange.js';
import { SseStream, type StreamHost } from './sseStream.js';

/** Random, visible-ASCII identifier (session and stream ids). */
export function randomToken(bytes = 16): string {
  const buffer = new Uint8Array(bytes);
  crypto.getRandomValues(buffer);
  return Array.from(buffer, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Settings shared by every session of a handler. */
export interface SessionSettings {
  readonly eventStore: EventStore;
  readonly retryMs: number;
  readonly responseMode: 'adaptive' | 'sse';
  readonly sseAfterMs: number;
  readonly report: (error: unknown) => void;
  /** Stateless mode: the session serves one POST and closes when it is answered. */
  readonly ephemeral?: boolean;
}

/** The server side of one session. */
export class HttpSessionTransport implements Transport, StreamHost {
  onmessage?: (message: unknown, info?: MessageInfo) => void;
  ondecodeerror?: Transport['ondecodeerror'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  readonly headers: Readonly<Record<string, string>>;
  /** Updated on every request: idle sessions are reaped. */
  lastActivity = Date.now();
  private readonly byRequest = new Map<RequestId, SseStream>();
  private readonly streams = new Map<string, SseStream>();
  private readonly standalone: SseStream;
  private closed = false;
  /** Stream ids: one random prefix per session, then a counter (unique, and cheap per POST). */
  private readonly streamPrefix = randomToken(8);
  private streamCount = 0;

  constructor(
    /** Undefined in stateless mode. */
    readonly sessionId: string | undefined,
    private readonly settings: SessionSettings,
    /** The principal that created the session; only it may use it. */
    readonly owner: string | undefined,
  ) {
    this.headers = sessionId === undefined ? {} : { 'mcp-session-id': sessionId };
    this.standalone = new SseStream(this, {
      id: this.nextStreamId(),
      requests: [],
      mode: 'standalone',
      sseAfterMs: 0,
      batch: false,
    });
    this.streams.set(this.standalone.id, this.standalone);
  }

  get eventStore(): EventStore {
    return this.settings.eventStore;
  }

  get retryMs(): number {
    return this.settings.retryMs;
  }

  /** True while a client holds the standalone GET stream open. */
  get listening(): boolean {
    return this.standalone.connected;
  }

  async start(): Promise<void> {}

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): Promise<void> {
    if (this.closed) return Promise.reject(new LocalError('closed', 'The session is closed'));
    for (const one of Array.isArray(message) ? message : [message])
      this.route(one, options?.relatedRequestId);
    return Promise.resolve();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const stream of this.streams.values()) stream.end();
    this.streams.clear();
    this.byRequest.clear();
    if (this.sessionId !== undefined)
      await this.settings.eventStore.dropSession(this.sessionId).catch(this.settings.report);
    this.onclose?.();
  }

  /** Ends the HTTP connection of a request's stream so the client polls (see SseStream). */
  closeStream(requestId: RequestId): void {
    this.byRequest.get(requestId)?.closeConnection();
  }

  /**
   * Accepts the messages of one POST. Requests get a new stream whose HTTP response is returned;
   * a POST of only notifications and responses gets undefined (the caller answers 202).
   */
  receive(
    messages: readonly unknown[],
    info: { batch: boolean; requestIds: readonly RequestId[]; message: MessageInfo },
  ): Promise<HttpReply> | undefined {
    this.lastActivity = Date.now();
    let stream: SseStream | undefined;
    if (info.requestIds.length > 0) {
      stream = new SseStream(this, {
        id: this.nextStreamId(),
        requests: info.requestIds,
        mode: this.settings.responseMode,
        sseAfterMs: this.settings.sseAfterMs,
        batch: info.batch,
      });
      this.streams.set(stream.id, stream);
      for (const id of info.requestIds) this.byRequest.set(id, stream);
    }
    this.onmessage?.(info.batch ? messages : messages[0], info.message);
    if (this.settings.ephemeral && !stream) queueMicrotask(() => void this.close());
    return stream?.reply;
  }

  /** A GET: the standalone stream, or the resumption of the stream `lastEventId` belongs to. */
  async listen(lastEventId: string | undefined): Promise<HttpReply | 'conflict' | 'unknown-event'> {
    this.lastActivity = Date.now();
    if (lastEventId === undefined) {
      if (this.standalone.connected) return 'conflict';
      return this.standalone.attach(undefined);
    }
    const streamId = lastEventId.slice(0, Math.max(0, lastEventId.lastIndexOf(':')));
    const stream = this.streams.get(streamId);
    if (stream) return stream.attach(lastEventId);
    return 'unknown-event';
  }

  /** True when the id names a request whose response is still due. */
  hasPending(id: RequestId): boolean {
    return this.byRequest.has(id);
  }

  streamEnded(stream: SseStream): void {
    for (const [id, s] of this.byRequest) if (s === stream) this.byRequest.delete(id);
    // A stream that ended with unread events stays until the client resumes it or the session ends.
    if (stream !== this.standalone && stream.finished && !stream.hasUnread)
      this.streams.delete(stream.id);
    if (this.settings.ephemeral && this.byRequest.size === 0) void this.close();
  }

  report(error: unknown): void {
    this.settings.report(error);
  }

  private nextStreamId(): string {
    return `${this.streamPrefix}${(++this.streamCount).toString(36)}`;
  }

  private route(message: JsonRpcMessage, related: RequestId | undefined): void {
    let stream: SseStream | undefined;
    if (!('method' in message)) {
      if (message.id !== undefined && message.id !== null) stream = this.byRequest.get(message.id);
      if (!stream) {
        this.settings.report(
          new Error(`No stream is waiting for the response to ${String(message.id)}; dropped`),
        );
        return;
      }
    } else if (related !== undefined) {
      stream = this.byRequest.get(related);
    }
    (stream ?? this.standalone).deliver(message);
  }
}

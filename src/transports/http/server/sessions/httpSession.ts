/**
 * @module One Streamable HTTP session on the server: the Transport its server session talks to.
 * Every message goes on exactly one stream (never broadcast): a response on the stream of the
 * POST that carried its request, a message related to a request on that request's stream, and
 * anything else on the standalone GET stream (kept for the next GET when none is open).
 */
import {
  PROMPTS_LIST_CHANGED,
  RESOURCES_LIST_CHANGED,
  TOOLS_LIST_CHANGED,
} from '../../../../jsonrpc/methods.js';
import { LocalError } from '../../../../jsonrpc/errors.js';
import type {
  MessageInfo,
  SendOptions,
  Transport,
  TransportNetwork,
} from '../../../../jsonrpc/transport.js';
import type { JsonRpcMessage, RequestId } from '../../../../jsonrpc/types.js';
import type { SharedEventStore } from './cluster/cluster.js';
import type { EventStore } from './eventStore.js';
import { JSON_HEADERS, SseChannel, type HttpReply } from '../exchange.js';
import { HTTP_SERVER_NETWORK } from '../../shared/network.js';
import { formatSseRetry, SSE_HEADERS } from '../../shared/sse.js';
import { PeerRelay } from './cluster/peerRelay.js';
import {
  PendingPost,
  type PendingHost,
  type PostStream,
  type ReplyHeaders,
} from './pendingPost.js';
import { RequestRoutes } from './requestRoutes.js';
import { SseStream, type StreamHost } from './sseStream.js';
import type { SessionOwner } from './sessionOwner.js';

/** Random, visible-ASCII identifier (session and stream ids). */
export function randomToken(bytes = 16): string {
  const buffer = new Uint8Array(bytes);
  crypto.getRandomValues(buffer);
  return Array.from(buffer, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The other instances serving this session (Streamable HTTP behind a load balancer), as the
 * handler wires them: see cluster.ts.
 */
export interface SessionPeers {
  readonly instanceId: string;
  readonly events: SharedEventStore;
  /** Hands a message this instance cannot deliver to the instances that may. */
  forward(message: JsonRpcMessage, relatedRequestId: RequestId | undefined): void;
  /** Tells the other instances that this one now holds the session's GET stream. */
  claimListener(): void;
}

/**
 * Notifications every instance sends on its own (each has its own tool registry, changed in step
 * by the application): forwarding them too would deliver one per instance.
 */
const PER_INSTANCE = new Set([TOOLS_LIST_CHANGED, RESOURCES_LIST_CHANGED, PROMPTS_LIST_CHANGED]);

/** The headers of a POST's reply that does not carry `initialize`: the same for every session. */
const PLAIN_HEADERS: ReplyHeaders = { json: JSON_HEADERS, sse: SSE_HEADERS };

/** Standalone (GET) stream ids end in `_g<n>`; POST stream ids never contain `_`. */
function isStandaloneStream(streamId: string): boolean {
  return /_g[0-9a-z]+$/.test(streamId);
}

/** What `send` answers: delivery to a stream is synchronous, so one settled promise serves all. */
const SENT: Promise<void> = Promise.resolve();

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
export class HttpSessionTransport implements Transport, StreamHost, PendingHost {
  readonly networkTransport = 'tcp' as const;
  readonly network: TransportNetwork = HTTP_SERVER_NETWORK;
  onmessage?: (message: unknown, info?: MessageInfo) => void;
  ondecodeerror?: Transport['ondecodeerror'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  /**
   * The headers of the reply to the POST that carries `initialize`: the only response that names
   * the session (the spec's place for `MCP-Session-Id`; clients send it back on every request
   * after). Built once per session.
   */
  private readonly initializeHeaders: ReplyHeaders;
  /** Updated on every request: idle sessions are reaped. */
  lastActivity: number = Date.now();
  /** Where each request's messages go: its POST while answered in JSON, else its stream. */
  private readonly byRequest = new RequestRoutes<PendingPost | PostStream>();
  private readonly streams = new Map<string, SseStream>();
  private standalone: SseStream;
  /**
   * Whether messages not tied to a request go to this instance's GET stream. Alone, always; in a
   * cluster, from the moment a GET attaches here until one attaches elsewhere.
   */
  private holdsListener: boolean;
  private readonly remoteResumes = new Set<() => void>();
  /** The identity that created the session; only it may use it. */
  readonly owner: SessionOwner | undefined;
  /** The other instances serving this session, when there are any. */
  private readonly peers: SessionPeers | undefined;
  private closed = false;
  private standaloneCount = 0;
  /** Stream ids: one random prefix per session, then a counter (unique, and cheap per POST). */
  private readonly streamPrefix = randomToken(8);
  private streamCount = 0;

  constructor(
    /** Undefined in stateless mode. */
    readonly sessionId: string | undefined,
    private readonly settings: SessionSettings,
    placement: {
      /** The identity that created the session; only it may use it. */
      owner: SessionOwner | undefined;
      /** The other instances serving this session, when there are any. */
      peers?: SessionPeers | undefined;
    } = { owner: undefined },
  ) {
    this.owner = placement.owner;
    this.peers = placement.peers;
    this.initializeHeaders =
      sessionId === undefined
        ? PLAIN_HEADERS
        : {
            json: { ...JSON_HEADERS, 'mcp-session-id': sessionId },
            sse: { ...SSE_HEADERS, 'mcp-session-id': sessionId },
          };
    this.holdsListener = this.peers === undefined;
    this.requestIdPrefix = this.peers === undefined ? undefined : `${this.peers.instanceId}.`;
    this.standalone = this.newStandalone();
  }

  readonly requestIdPrefix: string | undefined;

  private newStandalone(): SseStream {
    const stream = new SseStream(this, {
      id: `${this.streamPrefix}_g${(++this.standaloneCount).toString(36)}`,
      requests: [],
    });
    this.streams.set(stream.id, stream);
    return stream;
  }

  get eventStore(): EventStore {
    return this.settings.eventStore;
  }

  get retryMs(): number {
    return this.settings.retryMs;
  }

  get sseAfterMs(): number {
    return this.settings.sseAfterMs;
  }

  /** True while a client holds the standalone GET stream open. */
  get listening(): boolean {
    return this.standalone.connected;
  }

  async start(): Promise<void> {}

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): Promise<void> {
    if (this.closed) return Promise.reject(new LocalError('closed', 'The session is closed'));
    const related = options?.relatedRequestId;
    if (!Array.isArray(message)) this.route(message, related);
    else for (const one of message) this.route(one, related);
    return SENT;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // POSTs still answered in JSON are not among the streams: their requests are.
    for (const post of new Set(this.byRequest.values()))
      if (post instanceof PendingPost) post.end();
    for (const stream of this.streams.values()) stream.end();
    for (const stop of this.remoteResumes) stop();
    this.remoteResumes.clear();
    this.streams.clear();
    this.byRequest.clear();
    // In a cluster the session lives on elsewhere: only its end (DELETE, expiry) drops its events.
    if (this.sessionId !== undefined && (!this.peers || this.sessionEnded))
      await this.settings.eventStore.dropSession(this.sessionId).catch(this.settings.report);
    this.onclose?.();
  }

  /** Set before close() when the session ends for every instance (not just this replica). */
  sessionEnded = false;

  /** A client message another instance received for this session (see cluster.ts). */
  receiveFromPeer(message: JsonRpcMessage): void {
    if (this.closed) return;
    this.lastActivity = Date.now();
    this.onmessage?.(message, {});
  }

  /** A server message another instance could not deliver: delivered here if the stream is here. */
  deliverFromPeer(message: JsonRpcMessage, relatedRequestId: RequestId | undefined): void {
    if (this.closed) return;
    if (relatedRequestId !== undefined) this.byRequest.get(relatedRequestId)?.deliver(message);
    else if (this.holdsListener) this.standalone.deliver(message);
  }

  /**
   * Another instance holds the GET stream now: end ours (followers of its events learn it
   * ended) and keep a fresh one for a later GET here.
   */
  releaseListener(): void {
    if (this.closed || !this.holdsListener || !this.peers) return;
    this.holdsListener = false;
    const previous = this.standalone;
    this.streams.delete(previous.id);
    previous.end();
    this.standalone = this.newStandalone();
  }

  /**
   * Ends the HTTP connection of the GET stream (idle reaping): the stream stays, so a client that
   * is still there resumes it with `Last-Event-ID` after the `retry` delay.
   */
  dropListener(): void {
    if (!this.closed) this.standalone.closeConnection();
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
    info: {
      batch: boolean;
      requestIds: readonly RequestId[];
      /** The POST carries `initialize`: its reply names the session. */
      initialize?: boolean;
      message: MessageInfo;
    },
  ): Promise<HttpReply> | undefined {
    this.lastActivity = Date.now();
    let post: PendingPost | undefined;
    if (info.requestIds.length > 0) {
      post = new PendingPost(
        this,
        info,
        info.initialize === true ? this.initializeHeaders : PLAIN_HEADERS,
      );
      for (const id of info.requestIds) this.byRequest.set(id, post);
      if (this.settings.responseMode === 'sse') post.upgrade();
    }
    this.onmessage?.(info.batch ? messages : messages[0], info.message);
    if (this.settings.ephemeral && !post) queueMicrotask(() => void this.close());
    return post?.reply;
  }

  /** A POST that must stream (see PendingPost): its SSE stream, resumable by id. */
  streamFor(post: PendingPost): SseStream {
    const stream = new SseStream(this, {
      id: this.nextStreamId(),
      requests: post.requests,
      post: { settle: post.settle, headers: post.headers.sse },
    });
    this.streams.set(stream.id, stream);
    for (const id of post.requests)
      if (this.byRequest.get(id) === post) this.byRequest.set(id, stream);
    return stream;
  }

  /** A POST answered in JSON. */
  answered(post: PendingPost): void {
    this.forget(post.requests, post);
  }

  /** A GET: the standalone stream, or the resumption of the stream `lastEventId` belongs to. */
  async listen(lastEventId: string | undefined): Promise<HttpReply | 'conflict' | 'unknown-event'> {
    this.lastActivity = Date.now();
    if (lastEventId === undefined) {
      if (this.standalone.connected) return 'conflict';
      this.claimListener();
      return this.standalone.attach(undefined);
    }
    const streamId = lastEventId.slice(0, Math.max(0, lastEventId.lastIndexOf(':')));
    const stream = this.streams.get(streamId);
    if (stream) {
      if (stream === this.standalone) this.claimListener();
      return stream.attach(lastEventId);
    }
    if (this.peers) return this.resumeFromPeer(lastEventId, streamId, this.peers);
    return 'unknown-event';
  }

  private claimListener(): void {
    if (!this.peers) return;
    this.holdsListener = true;
    this.peers.claimListener();
  }

  /**
   * Resumes a stream another instance wrote: replays what the client missed from the shared
   * event store, then follows what that instance appends until the stream ends. A GET stream is
   * taken over: its instance ends it when told this one holds the GET stream now, and the
   * connection continues on this instance's own GET stream.
   */
  private async resumeFromPeer(
    lastEventId: string,
    streamId: string,
    peers: SessionPeers,
  ): Promise<HttpReply | 'unknown-event'> {
    const standalone = isStandaloneStream(streamId);

    const channel = new SseChannel();
    // The retry delay only: no event may repeat an id at or before Last-Event-ID.
    channel.write(formatSseRetry(this.retryMs));
    let stop: () => void = () => {};
    let accepted = false;
    let endedEarly = false;
    const finish = (): void => {
      // Before the stream is known to be this session's, nothing continues (it may not be).
      if (!accepted) {
        endedEarly = true;
        return;
      }
      this.remoteResumes.delete(stop);
      if (channel.done || this.closed) return;
      if (standalone) {
        // Continue on this instance's GET stream, from its events not yet written anywhere.
        this.holdsListener = true;
        void this.standalone.attach(undefined, channel).catch((e: unknown) => this.report(e));
      } else {
        channel.close();
        void peers.events.dropStream(streamId).catch((e: unknown) => this.report(e));
      }
    };
    const relay = new PeerRelay({
      channel,
      events: peers.events,
      lastEventId,
      onEnd: () => queueMicrotask(finish),
    });
    if ((await relay.start()) !== this.sessionId) {
      relay.stop();
      channel.close();
      return 'unknown-event';
    }
    accepted = true;
    stop = () => relay.stop();
    this.remoteResumes.add(stop);
    channel.oncancel = () => {
      stop();
      this.remoteResumes.delete(stop);
    };
    if (standalone) this.claimListener();
    if (endedEarly) queueMicrotask(finish);
    return { status: 200, headers: SSE_HEADERS, sse: channel };
  }

  /** True when the id names a request whose response is still due. */
  hasPending(id: RequestId): boolean {
    return this.byRequest.has(id);
  }

  streamEnded(stream: SseStream): void {
    // A stream that ended with unread events stays until the client resumes it or the session ends.
    if (stream !== this.standalone && stream.finished && !stream.hasUnread)
      this.streams.delete(stream.id);
    this.forget(stream.requests, stream);
  }

  /** The requests of a POST that was answered: their ids may be used again. */
  private forget(requests: readonly RequestId[], owner: PendingPost | PostStream): void {
    for (const id of requests) this.byRequest.release(id, owner);
    if (this.settings.ephemeral && this.byRequest.size === 0) void this.close();
  }

  report(error: unknown): void {
    this.settings.report(error);
  }

  private nextStreamId(): string {
    return `${this.streamPrefix}${(++this.streamCount).toString(36)}`;
  }

  private route(message: JsonRpcMessage, related: RequestId | undefined): void {
    let stream: PendingPost | PostStream | undefined;
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
      if (!stream && this.peers) {
        this.peers.forward(message, related);
        return;
      }
    }
    if (stream) stream.deliver(message);
    else if (this.holdsListener) this.standalone.deliver(message);
    else if (this.peers && 'method' in message && !PER_INSTANCE.has(message.method))
      this.peers.forward(message, undefined);
  }
}

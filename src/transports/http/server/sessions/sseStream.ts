/**
 * @module One SSE stream of a session: the stream answering a POST, or the session's standalone
 * GET stream. It outlives its HTTP connection: when the connection drops (or the server closes it
 * to make the client poll), events keep going to the event store, and a GET with `Last-Event-ID`
 * attaches a new connection that first receives what was missed.
 *
 * Every event goes to the store first; a connection is written to only while it keeps up. When
 * it holds `SSE_BACKLOG_BYTES` (exchange.ts) unsent, the stream stops writing to it and, once it drains,
 * catches up from the store, as a resumption does. So what waits for a slow reader (connected,
 * detached or resuming) waits in the store, under its bounds: progress coalesced per token,
 * other notifications capped, responses always kept.
 *
 * A POST becomes a stream only when it must (pendingPost.ts): most are answered in JSON.
 */
import { ErrorCode } from '../../../../jsonrpc/errors.js';
import type { JsonRpcMessage, JsonRpcResponse, RequestId } from '../../../../jsonrpc/types.js';
import type { SharedEventStore } from './cluster/cluster.js';
import type { EventStore } from './eventStore.js';
import { SseChannel, type HttpReply } from '../exchange.js';
import type { PostStream } from './pendingPost.js';
import { formatSseEvent, formatSseRetry, SSE_HEADERS } from '../../shared/sse.js';

/** What a stream needs from its session. */
export interface StreamHost {
  readonly sessionId: string | undefined;
  readonly eventStore: EventStore;
  /** The reconnection delay announced to clients. */
  readonly retryMs: number;
  /** The stream ended: all its responses are written. */
  streamEnded(stream: SseStream): void;
  report(error: unknown): void;
}

type Mode = 'live' | 'detached' | 'done';

function isResponse(message: JsonRpcMessage): message is JsonRpcResponse {
  return !('method' in message);
}

/** The sequence number of one of our event ids (`<stream>:<seq>`). */
function seqOf(eventId: string): number {
  return Number(eventId.slice(eventId.lastIndexOf(':') + 1));
}

/** Options of one stream. */
export interface SseStreamOptions {
  id: string;
  /** Request ids whose responses this stream carries; none for the standalone stream. */
  requests: readonly RequestId[];
  /**
   * A POST's stream: how to answer the POST, at once, with the SSE response (and its headers).
   * The standalone stream has none: GETs attach to it.
   */
  post?: {
    readonly settle: (reply: HttpReply) => void;
    readonly headers: Readonly<Record<string, string>>;
  };
}

/** A POST's stream (awaiting responses to `requests`) or the standalone stream (awaiting none). */
export class SseStream implements PostStream {
  readonly id: string;
  /** Request ids whose responses this stream carries. */
  readonly requests: readonly RequestId[];
  private mode: Mode;
  private seq = 0;
  /** The last event written to a connection (or skipped there: the store no longer had it). */
  private deliveredSeq = 0;
  private channel: SseChannel | undefined;
  private readonly awaiting: Set<RequestId>;
  private pendingAppends: Promise<void> = Promise.resolve();
  private readonly standalone: boolean;
  /** The connection must catch up from the store before it is written to live again. */
  private behind = false;
  private pumping: Promise<void> | undefined;
  private pumpAgain = false;

  constructor(
    private readonly host: StreamHost,
    options: SseStreamOptions,
  ) {
    this.id = options.id;
    this.requests = options.requests;
    this.awaiting = new Set(options.requests);
    this.standalone = options.post === undefined;
    this.mode = 'detached';
    if (options.post) this.openSse(options.post.settle, options.post.headers);
  }

  /** True while an HTTP connection is attached. */
  get connected(): boolean {
    return this.channel !== undefined && !this.channel.done;
  }

  /** True once every awaited response was written (POST streams). */
  get finished(): boolean {
    return this.mode === 'done';
  }

  /** True when some events were stored but never written to a connection (a resume is due). */
  get hasUnread(): boolean {
    return this.seq > this.deliveredSeq;
  }

  /** Sends one message on this stream. */
  deliver(message: JsonRpcMessage): void {
    if (this.mode === 'done') {
      this.host.report(
        new Error(`A message arrived for stream ${this.id} after it ended; dropped`),
      );
      return;
    }
    this.emit(message);
    if (
      isResponse(message) &&
      !this.standalone &&
      message.id !== undefined &&
      message.id !== null
    ) {
      this.awaiting.delete(message.id);
      if (this.awaiting.size === 0) this.complete();
    }
  }

  /**
   * Closes the HTTP connection without ending the stream, so the client polls (SEP-1699): it
   * reconnects after `retry` with `Last-Event-ID` and gets the rest.
   */
  closeConnection(): void {
    if (this.mode === 'done' || !this.connected) return;
    this.channel?.write(formatSseRetry(this.host.retryMs));
    this.detach();
  }

  /**
   * Attaches a new connection (a GET): replays the events after `afterEventId` (or, for a fresh
   * standalone GET, those never written to a connection), then continues live.
   */
  async attach(afterEventId: string | undefined, continuing?: SseChannel): Promise<HttpReply> {
    if (this.connected) this.detach();
    const channel = this.newChannel(continuing);
    const after = afterEventId ?? `${this.id}:${this.deliveredSeq}`;
    // A fresh GET gets a priming event: where this connection starts (so a drop before any event
    // can resume) and the retry delay. A resumption gets the retry delay only: the client holds
    // its Last-Event-ID already, and no event may repeat an id at or before it.
    channel.write(
      afterEventId === undefined
        ? formatSseEvent({ id: after, retry: this.host.retryMs, data: '' })
        : formatSseRetry(this.host.retryMs),
    );
    this.deliveredSeq = Math.min(seqOf(after), this.seq);
    if (this.mode !== 'done') this.mode = 'live';
    this.behind = true;
    await this.pump(channel);
    return { status: 200, headers: SSE_HEADERS, sse: channel };
  }

  /**
   * Ends the stream and its connection (the session closed). Requests still awaiting a response
   * get a JSON-RPC error, so no POST is left without an answer.
   */
  end(): void {
    if (this.mode === 'done') return;
    for (const id of this.awaiting) {
      this.deliver({
        jsonrpc: '2.0',
        id,
        error: {
          code: ErrorCode.ServerShuttingDown,
          message: 'The session closed before the response',
        },
      });
    }
    const unread = this.hasUnread || !this.connected;
    this.mode = 'done';
    this.channel?.close();
    this.channel = undefined;
    // Whoever follows this stream from another instance learns that nothing more comes.
    if (unread) this.announceEnd();
  }

  /**
   * Tells a shared store the stream exists before its first event: the client may resume from
   * the priming event on another instance. Queued before the stream's appends.
   */
  private announceOpen(): void {
    const store = this.host.eventStore;
    const sessionId = this.host.sessionId;
    if (!('openStream' in store) || sessionId === undefined) return;
    const opened = (store as SharedEventStore).openStream({ streamId: this.id, sessionId });
    this.pendingAppends = this.pendingAppends
      .then(() => opened)
      .catch((e: unknown) => this.host.report(e));
  }

  private announceEnd(): void {
    const store = this.host.eventStore;
    if (!('endStream' in store)) return;
    void this.pendingAppends
      .then(() => (store as SharedEventStore).endStream(this.id))
      .catch((e: unknown) => this.host.report(e));
  }

  private openSse(
    settle: (reply: HttpReply) => void,
    headers: Readonly<Record<string, string>>,
  ): void {
    const channel = this.newChannel();
    this.mode = 'live';
    settle({ status: 200, headers, sse: channel });
    // The priming event: an id to resume from and the retry delay, before anything else.
    channel.write(formatSseEvent({ id: `${this.id}:0`, retry: this.host.retryMs, data: '' }));
    this.announceOpen();
  }

  /** A channel for a new connection, or one already open (a resumption that continues here). */
  private newChannel(existing?: SseChannel): SseChannel {
    const channel = existing ?? new SseChannel();
    // The client went away: not a cancellation (the spec says so); keep storing for a resume.
    channel.oncancel = () => {
      if (this.channel === channel) this.detach();
    };
    channel.ondrain = () => {
      if (this.channel === channel && this.behind) void this.pump(channel);
    };
    this.channel = channel;
    return channel;
  }

  private emit(message: JsonRpcMessage): void {
    const seq = ++this.seq;
    const id = `${this.id}:${seq}`;
    const data = JSON.stringify(message);
    const append = this.host.eventStore.append({
      streamId: this.id,
      sessionId: this.host.sessionId ?? '',
      eventId: id,
      message,
      data,
    });
    this.pendingAppends = this.pendingAppends
      .then(() => append)
      .catch((e: unknown) => this.host.report(e));
    const channel = this.channel;
    if (this.behind || !channel || channel.done) return; // the store has it; caught up later
    this.deliveredSeq = seq;
    if (!channel.write(formatSseEvent({ id, data }))) this.behind = true;
  }

  /**
   * Catches a connection up from the store, one run at a time; again when it drains. Once caught
   * up, a finished stream closes its connection.
   */
  private pump(channel: SseChannel): Promise<void> {
    if (this.pumping) {
      this.pumpAgain = true;
      return this.pumping;
    }
    const run = async (): Promise<void> => {
      do {
        this.pumpAgain = false;
        await this.catchUp(channel);
      } while (this.pumpAgain && this.channel === channel && this.behind);
    };
    this.pumping = run()
      .catch((e: unknown) => this.host.report(e))
      .finally(() => (this.pumping = undefined));
    return this.pumping;
  }

  private async catchUp(channel: SseChannel): Promise<void> {
    while (this.channel === channel && this.behind) {
      const target = this.seq;
      if (this.deliveredSeq >= target) {
        this.behind = false;
        break;
      }
      await this.pendingAppends;
      const replay = await this.host.eventStore.replayAfter(`${this.id}:${this.deliveredSeq}`);
      if (this.channel !== channel || channel.done) return;
      if (!replay)
        // The store forgot the stream (it expired): what was missed cannot be sent.
        this.host.report(
          new Error(`SSE stream ${this.id}: the events it missed are gone from the event store`),
        );
      for (const event of replay?.events ?? []) {
        const seq = seqOf(event.id);
        if (seq <= this.deliveredSeq) continue;
        this.deliveredSeq = seq;
        const open = channel.write(
          formatSseEvent({ id: event.id, data: JSON.stringify(event.message) }),
        );
        if (!open) return; // continued when the connection drains
      }
      // What the store no longer holds up to here was coalesced or dropped by its bounds.
      this.deliveredSeq = Math.max(this.deliveredSeq, target);
    }
    if (this.channel === channel && !this.behind && this.mode === 'done') {
      this.closeFinished();
      this.host.streamEnded(this);
    }
  }

  private complete(): void {
    this.mode = 'done';
    if (this.connected && !this.behind) this.closeFinished();
    // Followers on other instances learn that nothing more comes; a connection still catching
    // up closes once it has everything (see catchUp).
    else this.announceEnd();
    this.host.streamEnded(this);
  }

  /** Closes the connection of a stream written in full: nothing is left to resume. */
  private closeFinished(): void {
    this.channel?.close();
    this.channel = undefined;
    void this.pendingAppends
      .then(() => this.host.eventStore.dropStream(this.id))
      .catch((e: unknown) => this.host.report(e));
  }

  private detach(): void {
    const channel = this.channel;
    this.channel = undefined;
    if (this.mode === 'live') this.mode = 'detached';
    channel?.close();
  }
}

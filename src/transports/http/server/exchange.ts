/**
 * @module The shape the HTTP core works on: a minimal request (method, path, headers, a body
 * reader with a limit) and a reply (status, headers, and a text body or an SSE channel).
 *
 * Why not `Request`/`Response` (STYLE.md §2.4): on Node 20, building a `Request` (with
 * `Readable.toWeb`), a `Response` and their `ReadableStream`s cost about 30% of the server's CPU
 * per call in the HTTP benchmark (profiled with --cpu-prof). The core keeps the same
 * request-in, reply-out shape; `handler.fetch(Request)` adapts web-standard runtimes to it, and
 * the Node adapter feeds it straight from `IncomingMessage`/`ServerResponse` without web streams.
 */
import type { PeerAddress } from '../../../jsonrpc/transport.js';
import type { BodyResult } from '../shared/body.js';

/** What the core reads of a request. */
export interface HttpExchange {
  readonly method: string;
  readonly pathname: string;
  /** A query parameter (the legacy transport's `sessionId`). */
  readonly query: (name: string) => string | null;
  /** A request header (name in lower case), or null. */
  readonly header: (name: string) => string | null;
  /** The address of the peer the request came from (the socket's), when the runtime tells it. */
  readonly clientAddress?: string | undefined;
  /** The peer's address and port (the socket), when the runtime tells them: for telemetry. */
  readonly peer?: PeerAddress | undefined;
  /** The request's HTTP version (`1.1`), when the runtime tells it: for telemetry. */
  readonly httpVersion?: string | undefined;
  /**
   * The connection the request came on (any object that stays the same for it, e.g. the
   * socket), when the runtime tells it: checks whose verdict depends only on header values are
   * remembered per connection (keyed by those values).
   */
  readonly connection?: object | undefined;
  /** The whole body as text, read up to `limit` bytes. */
  readonly body: (limit: number) => Promise<BodyResult>;
  /**
   * Calls `listener` if the client goes away before the reply is written (a 2026-07-28 request is
   * cancelled then); returns what stops listening. Absent when the runtime cannot tell.
   */
  readonly onDisconnect?: ((listener: () => void) => () => void) | undefined;
}

/**
 * How much text an SSE connection may hold unsent (in the socket's buffer, or queued in a
 * response body) before its writer stops and waits for it to drain: what waits beyond it waits
 * in the event store, bounded there (see boundedEvents.ts).
 */
export const SSE_BACKLOG_BYTES: number = 1024 * 1024;

/** Where an SSE channel writes once a connection is attached. */
export interface SseSink {
  /**
   * Writes text (always all of it); returns false when the connection now holds
   * {@link SSE_BACKLOG_BYTES} or more: the writer stops until the adapter calls `drain()`.
   */
  write(text: string): boolean;
  close(): void;
}

/** The longest wait one timer can hold (a longer one fires at once): longer waits go in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The body of one SSE response: text written before the connection attaches is buffered; when
 * the client goes away the adapter calls `cancel()`, when a congested connection can take more,
 * `drain()`.
 */
export class SseChannel {
  private sink: SseSink | undefined;
  private buffer: string[] = [];
  private ended = false;
  private cancelled = false;
  private expiry: ReturnType<typeof setTimeout> | undefined;
  /** Set by the stream that owns the channel. */
  oncancel: (() => void) | undefined;
  /** Set by the writer that stopped on a congested connection. */
  ondrain: (() => void) | undefined;

  /** True once the client went away or the channel was closed. */
  get done(): boolean {
    return this.ended || this.cancelled;
  }

  /** Writes text; false when the writer should wait for `ondrain` before writing more. */
  write(text: string): boolean {
    if (this.done) return false;
    if (this.sink) return this.sink.write(text);
    this.buffer.push(text);
    return true;
  }

  /** Called by the adapter: a congested connection took what it held. */
  drain(): void {
    if (!this.done) this.ondrain?.();
  }

  close(): void {
    if (this.ended) return;
    this.ended = true;
    this.stopExpiry();
    this.sink?.close();
  }

  /**
   * Ends the connection at `time` (ms since the epoch) as if the client had gone away, then
   * closes it: the credential the stream was opened with stops being valid then, and the client
   * must come back with a fresh one (a Streamable HTTP stream is resumed, an HTTP+SSE session
   * ends with its stream). One timer, cleared when the channel ends first.
   */
  endAt(time: number): void {
    if (this.done) return;
    this.stopExpiry();
    const wait = Math.min(Math.max(time - Date.now(), 0), MAX_TIMER_MS);
    this.expiry = setTimeout(() => {
      this.expiry = undefined;
      if (Date.now() < time) {
        this.endAt(time); // a wait past the longest timer, or a timer that fired early
        return;
      }
      this.cancel();
      this.close();
    }, wait);
    (this.expiry as { unref?: () => void }).unref?.();
  }

  private stopExpiry(): void {
    if (this.expiry === undefined) return;
    clearTimeout(this.expiry);
    this.expiry = undefined;
  }

  /** Called by the adapter: the connection is ready. */
  attach(sink: SseSink): void {
    this.sink = sink;
    for (const text of this.buffer.splice(0)) sink.write(text);
    if (this.ended) sink.close();
  }

  /** Called by the adapter: the client went away. */
  cancel(): void {
    if (this.cancelled || this.ended) return;
    this.cancelled = true;
    this.stopExpiry();
    this.oncancel?.();
  }
}

/** What the core answers. */
export type HttpReply =
  | {
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly body?: string;
    }
  | {
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly sse: SseChannel;
    };

/** The headers of a JSON body (shared: replies never change their headers). */
export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json',
});

/** No headers (shared). */
export const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** A reply whose body is JSON text. */
export function jsonReply(
  status: number,
  value: unknown,
  headers: Readonly<Record<string, string>> = NO_HEADERS,
): HttpReply {
  return {
    status,
    headers: headers === NO_HEADERS ? JSON_HEADERS : { ...JSON_HEADERS, ...headers },
    body: JSON.stringify(value),
  };
}

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
import type { BodyResult } from './body.js';

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
  /** The whole body as text, read up to `limit` bytes. */
  readonly body: (limit: number) => Promise<BodyResult>;
}

/** Where an SSE channel writes once a connection is attached. */
export interface SseSink {
  /** Writes text; returns false when the connection is congested. */
  write(text: string): boolean;
  close(): void;
}

/**
 * The body of one SSE response: text written before the connection attaches is buffered; when
 * the client goes away the adapter calls `cancel()`.
 */
export class SseChannel {
  private sink: SseSink | undefined;
  private buffer: string[] = [];
  private ended = false;
  private cancelled = false;
  /** Set by the stream that owns the channel. */
  oncancel: (() => void) | undefined;

  /** True once the client went away or the channel was closed. */
  get done(): boolean {
    return this.ended || this.cancelled;
  }

  write(text: string): void {
    if (this.done) return;
    if (this.sink) this.sink.write(text);
    else this.buffer.push(text);
  }

  close(): void {
    if (this.ended) return;
    this.ended = true;
    this.sink?.close();
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

/** A reply whose body is JSON text. */
export function jsonReply(
  status: number,
  value: unknown,
  headers: Readonly<Record<string, string>> = {},
): HttpReply {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(value),
  };
}

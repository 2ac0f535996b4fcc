/**
 * @module The requests of one POST while their responses are awaited. Most POSTs are answered in
 * one JSON body as soon as the responses are ready; only when something else must be sent first
 * (a progress notification, a log, a request to the client), the handler closes the connection
 * for polling, or the responses take longer than `sseAfterMs`, does the POST become an SSE
 * stream (sseStream.ts). So a JSON answer costs no stream object, stream id, event-store entry
 * or channel: profiling the HTTP benchmark showed those on every call.
 */
import { ErrorCode } from '../../../../jsonrpc/errors.js';
import type { JsonRpcMessage, JsonRpcResponse, RequestId } from '../../../../jsonrpc/types.js';
import type { HttpReply } from '../exchange.js';

/** Where a POST's messages go once it streams (an SSE stream). */
export interface PostStream {
  deliver(message: JsonRpcMessage): void;
  closeConnection(): void;
  end(): void;
}

/** The response headers of a POST, built once (per session when they name it). */
export interface ReplyHeaders {
  readonly json: Readonly<Record<string, string>>;
  readonly sse: Readonly<Record<string, string>>;
}

/** What a pending POST needs from its session. */
export interface PendingHost {
  /** A POST streams when its responses have not all come within this time. */
  readonly sseAfterMs: number;
  /**
   * The SSE stream the POST becomes: it answers the POST at once with an SSE response and
   * carries the POST's requests from then on.
   */
  streamFor(post: PendingPost): PostStream;
  /** The POST was answered in JSON: its requests are done. */
  answered(post: PendingPost): void;
}

/**
 * POSTs still waiting for their responses, upgraded to SSE by one shared sweep rather than a
 * timer each: a timer per POST was a measurable cost at thousands of calls per second. A list
 * in creation order: an answered POST stays in it until the next sweep drops it, which costs less
 * than removing it from a Map at once (a Map that keeps emptying reallocates its table).
 */
let waiting: PendingPost[] = [];
let sweeper: ReturnType<typeof setInterval> | undefined;
const SWEEP_MS = 10;

function sweepWaiting(): void {
  const now = Date.now();
  const list = waiting;
  waiting = [];
  for (const post of list) {
    if (!post.pending) continue;
    if (now >= post.dueAt) post.upgrade();
    else waiting.push(post);
  }
  if (waiting.length === 0 && sweeper !== undefined) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

function watch(post: PendingPost): void {
  waiting.push(post);
  if (sweeper === undefined) {
    sweeper = setInterval(sweepWaiting, SWEEP_MS);
    (sweeper as { unref?: () => void }).unref?.();
  }
}

/** One POST's requests, awaiting their responses. */
export class PendingPost {
  /** The reply to the POST: JSON, or the SSE response once it streams. */
  readonly reply: Promise<HttpReply>;
  /** Answers the POST (the first call counts). */
  settle!: (reply: HttpReply) => void;
  /** Set once the POST streams: everything goes there. */
  private stream: PostStream | undefined;
  private answeredJson = false;
  /** Responses held for the JSON answer, in arrival order. */
  private readonly held: JsonRpcResponse[] = [];

  /** The ids of the POST's requests (one unless it is a batch). */
  readonly requests: readonly RequestId[];
  /** The headers of its reply, JSON or SSE. */
  readonly headers: ReplyHeaders;
  /** A batch is answered with an array even when it holds one request. */
  private readonly batch: boolean;
  /** When the POST streams if its responses have not all come. */
  readonly dueAt: number;

  constructor(
    private readonly host: PendingHost,
    /** The POST's request ids (one unless it is a batch) and whether it is a batch. */
    post: { readonly requestIds: readonly RequestId[]; readonly batch: boolean },
    headers: ReplyHeaders,
  ) {
    this.requests = post.requestIds;
    this.batch = post.batch;
    this.headers = headers;
    this.reply = new Promise((resolve) => (this.settle = resolve));
    this.dueAt = Date.now() + host.sseAfterMs;
    watch(this);
  }

  /** True until the POST is answered in JSON or streams. */
  get pending(): boolean {
    return this.stream === undefined && !this.answeredJson;
  }

  /** Sends one message of this POST: a response is held, anything else opens the stream. */
  deliver(message: JsonRpcMessage): void {
    if (this.stream) return this.stream.deliver(message);
    if (this.answeredJson) return; // the session routes nothing here once answered
    if ('method' in message) {
      this.upgrade().deliver(message);
      return;
    }
    this.held.push(message);
    if (this.held.length >= this.requests.length && this.allHeld()) this.answer();
  }

  /** The connection is to close so the client polls: that needs a stream to resume. */
  closeConnection(): void {
    if (!this.answeredJson) this.upgrade().closeConnection();
  }

  /** The session closed: requests still awaiting a response get a JSON-RPC error. */
  end(): void {
    if (this.stream) return this.stream.end();
    if (this.answeredJson) return;
    for (const id of this.requests) {
      if (this.held.some((r) => r.id === id)) continue;
      this.held.push({
        jsonrpc: '2.0',
        id,
        error: {
          code: ErrorCode.ServerShuttingDown,
          message: 'The session closed before the response',
        },
      });
    }
    this.answer();
  }

  /** Turns the POST into an SSE stream (the held responses go first); returns the stream. */
  upgrade(): PostStream {
    if (this.stream) return this.stream;
    const stream = this.host.streamFor(this);
    this.stream = stream;
    for (const held of this.held.splice(0)) stream.deliver(held);
    return stream;
  }

  /** True when every request has its response (checked by id: a batch's may come in any order). */
  private allHeld(): boolean {
    if (this.requests.length === 1) return true;
    const ids = new Set(this.held.map((r) => r.id));
    return this.requests.every((id) => ids.has(id));
  }

  private answer(): void {
    this.answeredJson = true;
    const body = JSON.stringify(this.batch ? this.held : this.held[0]);
    const refused = this.batch ? undefined : rateLimitRefusal(this.held[0]);
    this.settle(
      refused === undefined
        ? { status: 200, headers: this.headers.json, body }
        : // A rate-limited call (not a batch): 429 and Retry-After, as HTTP clients expect, with
          // the JSON-RPC error as the body, so an MCP client still reads which limit and how long.
          {
            status: 429,
            headers: { ...this.headers.json, 'retry-after': String(refused) },
            body,
          },
    );
    this.host.answered(this);
  }
}

/** The `Retry-After` seconds of a response refusing a call over a rate limit, else undefined. */
function rateLimitRefusal(response: JsonRpcResponse | undefined): number | undefined {
  if (response === undefined || !('error' in response)) return undefined;
  const { code, data } = response.error;
  if (code !== ErrorCode.RateLimited) return undefined;
  const ms = (data as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
  return typeof ms === 'number' && Number.isFinite(ms) ? Math.max(1, Math.ceil(ms / 1000)) : 1;
}

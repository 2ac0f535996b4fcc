/**
 * @module The fetch-based Streamable HTTP client transport: every message is a POST answered by
 * JSON or an SSE stream; a dropped stream is resumed with GET + `Last-Event-ID` after the `retry`
 * the server announced; the standalone GET stream carries server-initiated messages; a 404 on the
 * session makes the transport open a new session by replaying `initialize`; DELETE on close.
 */
import { INITIALIZE, INITIALIZED } from '../../../jsonrpc/methods.js';
import { sleep } from '../../../jsonrpc/sleep.js';
import { decodeMessage, DEFAULT_MAX_DEPTH } from '../../../jsonrpc/decode.js';
import { LocalError } from '../../../jsonrpc/errors.js';
import { startedTwice } from '../../../jsonrpc/transportClaims.js';
import { isPlainObject, isRequestId } from '../../../jsonrpc/guards.js';
import type {
  CacheContext,
  MessageInfo,
  SendOptions,
  Transport,
  TransportNetwork,
} from '../../../jsonrpc/transport.js';
import { headerValue } from '../shared/headerValue.js';
import type { JsonRpcMessage, JsonRpcRequest, RequestId } from '../../../jsonrpc/types.js';
import { readBody } from '../shared/body.js';
import { credentialDigest } from '../../credentialDigest.js';
import { resolveHeaders } from './clientHeaders.js';
import { isErrorFor, isRateLimitRefusal, MODERN_REFUSALS } from './errorBodies.js';
import { HttpStatusError } from './httpStatusError.js';
import { mirrorHeaders } from './mirrorHeaders.js';
import { RequestStreams } from './requestStreams.js';
import type { StreamableHttpClientOptions } from './streamableClientOptions.js';
import { sendAuthorized } from './authorizedSend.js';
import { httpClientNetwork } from '../shared/network.js';
import { connectionError, ConnectionError, lostStreamError } from './networkError.js';
import { fetchFollowing, RedirectError } from './redirects.js';
import { retryAfterMs } from './retryAfter.js';
import { readSse } from '../shared/sseReader.js';

interface StreamState {
  lastEventId: string | undefined;
  retryMs: number | undefined;
  /** Requests whose responses this stream carries (none for the standalone stream). */
  awaited: readonly RequestId[];
}

function requestIdsOf(message: JsonRpcMessage | JsonRpcMessage[]): RequestId[] {
  const all = Array.isArray(message) ? message : [message];
  return all.flatMap((m) => ('method' in m && 'id' in m && isRequestId(m.id) ? [m.id] : []));
}

function isInitialize(message: JsonRpcMessage | JsonRpcMessage[]): message is JsonRpcRequest {
  return (
    !Array.isArray(message) &&
    'method' in message &&
    message.method === INITIALIZE &&
    'id' in message
  );
}

/** Attempts in a row that reach no server at all before a stream is given up. */
const UNREACHABLE_ATTEMPTS = 2;

/** A Streamable HTTP connection to one MCP endpoint. */
export class StreamableHttpClientTransport implements Transport {
  readonly networkTransport = 'tcp' as const;
  readonly network: TransportNetwork;
  onmessage?: (message: unknown, info?: MessageInfo) => void;
  ondecodeerror?: Transport['ondecodeerror'];
  onfailure?: Transport['onfailure'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  readonly url: URL;
  private session: string | undefined;
  private version: string | undefined;
  /** A stateless revision: every POST mirrors its message's method and name in headers. */
  private stateless = false;
  private readonly lifetime = new AbortController();
  private readonly outstanding = new Set<RequestId>();
  private readonly streams = new RequestStreams(this.lifetime.signal, this.outstanding);
  private initializeRequest: JsonRpcRequest | undefined;
  private reinitializing: Promise<void> | undefined;
  private standaloneOpen = false;
  private started = false;
  private closed = false;
  private readonly fetcher: typeof fetch;
  private readonly maxBytes: number;
  private readonly maxDepth: number;

  constructor(
    url: URL | string,
    private readonly options: StreamableHttpClientOptions = {},
  ) {
    this.url = new URL(url);
    this.fetcher = options.fetch ?? fetch;
    this.network = httpClientNetwork(this.url, options.fetch !== undefined);
    this.maxBytes = options.maxMessageBytes ?? 4 * 1024 * 1024;
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  }

  /** The session id the server assigned, if any. */
  get sessionId(): string | undefined {
    return this.session;
  }

  async start(): Promise<void> {
    if (this.started) throw startedTwice('StreamableHttpClientTransport');
    this.started = true;
  }

  /** The server's origin: a client remembers per origin which era it speaks. */
  get endpointKey(): string {
    return this.url.origin;
  }

  /** The URL, and a digest of the custom headers and the `Authorization` header sent now. */
  async cacheContext(): Promise<CacheContext> {
    const material: Record<string, string> = {};
    for (const [name, value] of Object.entries(await resolveHeaders(this.options.headers)))
      material[name.toLowerCase()] = value;
    const auth = await this.options.auth?.header(this.url).catch(() => undefined);
    if (auth !== undefined) material['authorization'] = auth;
    return { endpoint: this.url.href, credential: await credentialDigest(material) };
  }

  /**
   * Called by the client once a revision is negotiated: sent as MCP-Protocol-Version from then on
   * (none: the headers of a client that has not negotiated yet).
   */
  setProtocolVersion(version: string | undefined, options?: { stateless?: boolean }): void {
    this.version = version;
    this.stateless = options?.stateless === true;
  }

  async send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): Promise<void> {
    if (this.closed) throw new LocalError('closed', 'The transport is closed');
    // Stateless: a cancellation closes the request's stream, and is not posted.
    if (this.stateless && this.streams.cancels(message)) return;
    await this.post(message, true, options?.headers);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.lifetime.abort();
    if (this.session !== undefined) {
      // Best effort: a server may answer 405 (it keeps sessions until they idle out) or be gone.
      const headers: Record<string, string> = {
        ...(await this.baseHeaders()),
        'mcp-session-id': this.session,
      };
      const auth = await this.options.auth?.header(this.url).catch(() => undefined);
      if (auth !== undefined) headers['authorization'] = auth;
      await fetchFollowing(
        this.fetcher,
        { url: this.url, method: 'DELETE', headers, signal: AbortSignal.timeout(2000) },
        this.options,
      ).catch(() => {});
    }
    this.onclose?.();
  }

  private async baseHeaders(): Promise<Record<string, string>> {
    const headers: Record<string, string> = { ...(await resolveHeaders(this.options.headers)) };
    if (this.session !== undefined) headers['mcp-session-id'] = this.session;
    if (this.version !== undefined) headers['mcp-protocol-version'] = this.version;
    return headers;
  }

  /**
   * Headers of a POST: the session's, the content types the spec requires, and on a stateless
   * revision the headers mirroring the message (`Mcp-Method`, `Mcp-Name`) and the caller's own.
   */
  private async postHeaders(
    message?: JsonRpcMessage | JsonRpcMessage[],
    extra?: Readonly<Record<string, string>>,
  ): Promise<Record<string, string>> {
    const headers = await this.baseHeaders();
    headers['content-type'] = 'application/json';
    headers['accept'] = 'application/json, text/event-stream';
    if (message !== undefined && this.stateless) mirrorHeaders(message, headers);
    if (extra)
      for (const [name, value] of Object.entries(extra)) headers[name] = headerValue(value);
    return headers;
  }

  /**
   * One request to the endpoint, following the redirects the options allow (a refused one throws
   * {@link RedirectError}); a network failure becomes a {@link ConnectionError}.
   */
  private async fetch(
    method: 'GET' | 'POST',
    init: { headers: Record<string, string>; body?: string; signal?: AbortSignal | undefined },
  ): Promise<Response> {
    try {
      const signal = init.signal ?? this.lifetime.signal;
      return await sendAuthorized(
        this.options.auth,
        { endpoint: this.url, headers: init.headers, signal },
        (headers) =>
          fetchFollowing(
            this.fetcher,
            { ...init, headers, url: this.url, method, signal },
            this.options,
          ),
      );
    } catch (error) {
      if (error instanceof LocalError && error.code === 'authorization') throw error;
      if (error instanceof RedirectError) throw error;
      throw connectionError(method, this.url, error);
    }
  }

  private async post(
    message: JsonRpcMessage | JsonRpcMessage[],
    mayReinitialize: boolean,
    extraHeaders?: Readonly<Record<string, string>>,
  ): Promise<void> {
    if (isInitialize(message)) this.initializeRequest = message;
    const ids = requestIdsOf(message);
    for (const id of ids) this.outstanding.add(id);
    const hadSession = this.session !== undefined;
    const signal =
      this.stateless && ids[0] !== undefined ? this.streams.signalFor(ids[0]) : undefined;
    const response = await this.postOnce(message, extraHeaders, signal);
    const assigned = response.headers.get('mcp-session-id');
    if (assigned !== null && isInitialize(message)) this.session = assigned;
    if (response.status === 404 && hadSession && mayReinitialize && !isInitialize(message)) {
      await response.body?.cancel();
      // The session ended on the server: open a new one, then send this message again.
      await this.reinitialize();
      return this.post(message, false, extraHeaders);
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      if (
        (response.status === 429 && isRateLimitRefusal(text)) ||
        isErrorFor(text, ids, this.stateless ? undefined : MODERN_REFUSALS)
      ) {
        // An answer in JSON-RPC terms: the request fails with the server's error.
        this.deliverText(text);
        return;
      }
      for (const id of ids) this.outstanding.delete(id);
      throw new HttpStatusError(
        response.status,
        `HTTP ${response.status} from ${this.url.href}${text ? `: ${text.slice(0, 200)}` : ''}`,
      );
    }
    if (!Array.isArray(message) && 'method' in message && message.method === INITIALIZED)
      this.openStandalone();
    const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (ids.length === 0) {
      // Notifications and responses expect no answer; a body (some servers send one) is ignored.
      await response.body?.cancel().catch(() => {});
    } else if (type === 'text/event-stream' && response.body) {
      // A stateless request's stream is closed by its signal, whatever `fetch` does with it.
      const body = signal
        ? response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>(), { signal })
        : response.body;
      void this.consume(body, {
        lastEventId: undefined,
        retryMs: undefined,
        awaited: ids,
      });
    } else if (type === 'application/json' && response.status !== 202) {
      await this.readJson(response, ids);
    } else {
      await response.body?.cancel();
    }
  }

  /**
   * Sends a POST; a 429 or 503 with a `Retry-After` the client can honour is sent again after it
   * (backpressure from a server whose queue is full, not a failure).
   */
  private async postOnce(
    message: JsonRpcMessage | JsonRpcMessage[],
    extraHeaders: Readonly<Record<string, string>> | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Response> {
    const body = JSON.stringify(message);
    const retries = this.options.maxBusyRetries ?? 10;
    for (let attempt = 0; ; attempt++) {
      const headers = await this.postHeaders(message, extraHeaders);
      const response = await this.fetch('POST', { headers, body, signal });
      if ((response.status !== 429 && response.status !== 503) || attempt >= retries)
        return response;
      if (response.status === 429) {
        // A call refused by a rate limit is the caller's to handle (the JSON-RPC error says which
        // limit and how long), not backpressure to wait out here: it is delivered as is.
        const text = await response.text().catch(() => '');
        if (isRateLimitRefusal(text))
          return new Response(text, { status: 429, headers: response.headers });
      }
      const delay = retryAfterMs(response.headers.get('retry-after'));
      if (delay === undefined || this.lifetime.signal.aborted) return response;
      await response.body?.cancel().catch(() => {});
      await sleep(delay, this.lifetime.signal);
    }
  }

  private async readJson(response: Response, ids: readonly RequestId[]): Promise<void> {
    const body = await readBody(response, this.maxBytes);
    if (!body.ok) {
      for (const id of ids)
        this.failRequest(
          id,
          new LocalError(
            'message-too-large',
            `The response from ${this.url.href} exceeds the ${this.maxBytes}-byte message limit`,
          ),
        );
      return;
    }
    if (body.text.trim() === '') return;
    this.deliverText(body.text);
  }

  private deliverText(text: string): void {
    const decoded = decodeMessage(text, this.maxDepth);
    if (!decoded.ok) {
      this.ondecodeerror?.(decoded.error, decoded.hint);
      return;
    }
    const messages = Array.isArray(decoded.value) ? decoded.value : [decoded.value];
    for (const m of messages) {
      if (isPlainObject(m) && !('method' in m) && isRequestId(m['id'])) {
        this.outstanding.delete(m['id']);
        this.streams.done(m['id']);
      }
    }
    this.onmessage?.(decoded.value);
  }

  private failRequest(id: RequestId, error: LocalError): void {
    this.outstanding.delete(id);
    this.streams.done(id);
    this.onfailure?.(id, error);
  }

  /** Reads one SSE connection; resumes it while responses it carries are still due. */
  private async consume(body: ReadableStream<Uint8Array>, state: StreamState): Promise<void> {
    let oversized = false;
    try {
      await readSse(
        body,
        {
          event: (event) => {
            if (event.id !== undefined) state.lastEventId = event.id;
            if (
              event.data.trim() === '' ||
              (event.event !== undefined && event.event !== 'message')
            )
              return;
            this.deliverText(event.data);
          },
          retry: (ms) => (state.retryMs = ms),
          oversized: () => (oversized = true),
        },
        this.maxBytes,
      );
    } catch {
      // A dropped connection is not a cancellation: resume below if something is still due.
    }
    if (this.closed) return;
    if (oversized) {
      for (const id of state.awaited)
        if (this.outstanding.has(id))
          this.failRequest(
            id,
            new LocalError(
              'message-too-large',
              `A message from ${this.url.href} exceeds the ${this.maxBytes}-byte message limit`,
            ),
          );
    }
    const due = state.awaited.filter((id) => this.outstanding.has(id));
    if (state.awaited.length > 0 && due.length === 0) return; // a POST stream that delivered everything
    await this.resume({ ...state, awaited: due }, 0);
  }

  /**
   * Reconnects a stream with GET (+ Last-Event-ID), honouring the announced retry delay.
   * `unreachable` counts the attempts in a row that found no server at all.
   */
  private async resume(
    state: StreamState,
    attempt: number,
    lastFailure?: { error: Error; unreachable: number },
  ): Promise<void> {
    const standalone = state.awaited.length === 0;
    if (!standalone && state.lastEventId === undefined) {
      for (const id of state.awaited)
        this.failRequest(
          id,
          new LocalError(
            'transport',
            `The response stream from ${this.url.href} ended before the response, and it cannot be resumed`,
          ),
        );
      return;
    }
    const limit = this.options.maxReconnectAttempts ?? 5;
    const unreachable = lastFailure?.unreachable ?? 0;
    if (attempt >= limit || unreachable >= UNREACHABLE_ATTEMPTS) {
      if (standalone) this.standaloneOpen = false;
      for (const id of state.awaited)
        this.failRequest(id, lostStreamError(this.url, attempt, lastFailure));
      return;
    }
    const base = state.retryMs ?? this.options.reconnectDelayMs ?? 1000;
    // No backoff while nobody answers: the second refusal ends it one `retry` later.
    await sleep(
      attempt === 0 || unreachable > 0 ? base : base * 2 ** attempt,
      this.lifetime.signal,
    );
    if (this.closed) return;
    const headers: Record<string, string> = {
      ...(await this.baseHeaders()),
      accept: 'text/event-stream',
    };
    if (state.lastEventId !== undefined) headers['last-event-id'] = state.lastEventId;
    let response: Response;
    try {
      response = await this.fetch('GET', { headers });
    } catch (error) {
      if (error instanceof RedirectError) {
        // Asking again gets the same answer: the stream and what it carried are lost now.
        if (standalone) {
          this.standaloneOpen = false;
          this.onerror?.(error);
        }
        for (const id of state.awaited) this.failRequest(id, error);
        return;
      }
      const failure = error instanceof Error ? error : new Error(String(error));
      const refused = failure instanceof ConnectionError && failure.unreachable;
      return this.resume(state, attempt + 1, {
        error: failure,
        unreachable: refused ? unreachable + 1 : 0,
      });
    }
    const isSse = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    if (!response.ok || !response.body || !isSse) {
      await response.body?.cancel().catch(() => {});
      // 405 and 409 mean "no (second) GET stream here": stop for the standalone stream.
      if (
        standalone &&
        (response.status === 405 || response.status === 409 || response.status === 400)
      ) {
        this.standaloneOpen = false;
        return;
      }
      return this.resume(state, attempt + 1, {
        error: new HttpStatusError(
          response.status,
          `GET ${this.url.href}: HTTP ${response.status}${isSse ? '' : ' without an event stream'}`,
        ),
        unreachable: 0,
      });
    }
    await this.consume(response.body, state);
  }

  private openStandalone(): void {
    if (this.standaloneOpen || this.options.standaloneStream === false) return;
    this.standaloneOpen = true;
    void this.resume({ lastEventId: undefined, retryMs: 0, awaited: [] }, 0);
  }

  /** Opens a new session by replaying the initialize request (and initialized notification). */
  private reinitialize(): Promise<void> {
    this.reinitializing ??= (async () => {
      const init = this.initializeRequest;
      this.session = undefined;
      if (!init)
        throw new LocalError('transport', 'The session expired before initialize was seen');
      const response = await this.fetch('POST', {
        headers: await this.postHeaders(),
        body: JSON.stringify({ ...init, id: `toolwire-reinitialize-${Date.now()}` }),
      });
      await response.body?.cancel().catch(() => {});
      if (!response.ok)
        throw new HttpStatusError(
          response.status,
          `Re-initialization failed with HTTP ${response.status}`,
        );
      this.session = response.headers.get('mcp-session-id') ?? undefined;
      this.standaloneOpen = false;
      await this.post({ jsonrpc: '2.0', method: INITIALIZED }, false);
    })().finally(() => {
      this.reinitializing = undefined;
    });
    return this.reinitializing;
  }
}

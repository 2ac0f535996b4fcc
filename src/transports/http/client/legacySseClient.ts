/**
 * @module The 2024-11-05 HTTP+SSE client transport: a GET opens the event stream, whose first
 * event (`endpoint`) names where to POST; server messages arrive as `message` events. The POST
 * endpoint must be on the stream's origin (a server cannot send the client's messages elsewhere).
 */
import { decodeMessage, DEFAULT_MAX_DEPTH } from '../../../jsonrpc/decode.js';
import { LocalError } from '../../../jsonrpc/errors.js';
import { startedTwice } from '../../../jsonrpc/transportClaims.js';
import type { MessageInfo, Transport, TransportNetwork } from '../../../jsonrpc/transport.js';
import type { JsonRpcMessage } from '../../../jsonrpc/types.js';
import type { HttpAuthorization } from './httpAuthorization.js';
import { sendAuthorized } from './authorizedSend.js';
import { resolveHeaders, type HeadersSource } from './clientHeaders.js';
import { httpClientNetwork } from '../shared/network.js';
import { connectionError } from './networkError.js';
import {
  fetchFollowing,
  RedirectError,
  redirectAllowed,
  type RedirectOptions,
} from './redirects.js';
import { readSse } from '../shared/sseReader.js';
import { HttpStatusError } from './httpStatusError.js';

/**
 * Options of {@link LegacySseClientTransport}. Redirects of the GET and of the POSTs follow
 * `followRedirects` (same origin by default); the `endpoint` event must name the stream's origin
 * too, unless a `followRedirects` function allows its URL.
 */
export interface LegacySseClientOptions extends RedirectOptions {
  headers?: HeadersSource;
  /** Authorization of every request (see StreamableHttpClientOptions.auth). */
  auth?: HttpAuthorization;
  fetch?: typeof fetch;
  maxMessageBytes?: number;
  maxDepth?: number;
  /** How long to wait for the `endpoint` event. Default 10 000 ms. */
  endpointTimeoutMs?: number;
}

/** A connection to a 2024-11-05 HTTP+SSE server. */
export class LegacySseClientTransport implements Transport {
  readonly networkTransport = 'tcp' as const;
  readonly network: TransportNetwork;
  onmessage?: (message: unknown, info?: MessageInfo) => void;
  ondecodeerror?: Transport['ondecodeerror'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  readonly url: URL;
  private endpoint: URL | undefined;
  private readonly lifetime = new AbortController();
  private closed = false;
  private started = false;
  private readonly fetcher: typeof fetch;

  constructor(
    url: URL | string,
    private readonly options: LegacySseClientOptions = {},
  ) {
    this.url = new URL(url);
    this.fetcher = options.fetch ?? fetch;
    this.network = httpClientNetwork(this.url, options.fetch !== undefined);
  }

  /** Opens the event stream and waits for the `endpoint` event. */
  async start(): Promise<void> {
    // A second start would open a second event stream and a second endpoint.
    if (this.started) throw startedTwice('LegacySseClientTransport');
    this.started = true;
    const headers = {
      ...(await resolveHeaders(this.options.headers)),
      accept: 'text/event-stream',
    };
    const signal = this.lifetime.signal;
    const response = await sendAuthorized(
      this.options.auth,
      { endpoint: this.url, headers, signal },
      (authorized) =>
        fetchFollowing(
          this.fetcher,
          { url: this.url, method: 'GET', headers: authorized, signal },
          this.options,
        ),
    ).catch((error: unknown) => {
      throw error instanceof RedirectError || isAuthorizationError(error)
        ? error
        : connectionError('GET', this.url, error);
    });
    if (
      !response.ok ||
      !response.body ||
      !(response.headers.get('content-type') ?? '').includes('text/event-stream')
    ) {
      await response.body?.cancel().catch(() => {});
      throw new HttpStatusError(
        response.status,
        `No HTTP+SSE event stream at ${this.url.href} (HTTP ${response.status})`,
      );
    }
    let announce!: (endpoint: URL) => void;
    let refuse!: (error: Error) => void;
    const announced = new Promise<URL>((resolve, reject) => {
      announce = resolve;
      refuse = reject;
    });
    // A relative endpoint is read against the URL the stream came from (after redirects).
    const streamUrl = response.url !== '' ? new URL(response.url) : this.url;
    const maxDepth = this.options.maxDepth ?? DEFAULT_MAX_DEPTH;
    const maxBytes = this.options.maxMessageBytes ?? 4 * 1024 * 1024;
    void readSse(
      response.body,
      {
        event: (event) => {
          if (event.event === 'endpoint') {
            const endpoint = this.endpointOf(event.data.trim(), streamUrl);
            if (endpoint instanceof Error) refuse(endpoint);
            else announce(endpoint);
            return;
          }
          if (event.event !== undefined && event.event !== 'message') return;
          const decoded = decodeMessage(event.data, maxDepth);
          if (decoded.ok) this.onmessage?.(decoded.value);
          else this.ondecodeerror?.(decoded.error, decoded.hint);
        },
        // The stream does not say which request an oversized event answered: report it.
        oversized: () =>
          this.onerror?.(
            new LocalError(
              'message-too-large',
              `A message from ${this.url.href} exceeds the ${maxBytes}-byte message limit and was dropped`,
            ),
          ),
      },
      maxBytes,
    )
      .catch(() => {})
      .finally(() => {
        refuse(new LocalError('transport', 'The event stream ended before the endpoint event'));
        void this.close();
      });
    const timeout = setTimeout(
      () => refuse(new LocalError('timeout', 'No endpoint event arrived')),
      this.options.endpointTimeoutMs ?? 10_000,
    );
    try {
      this.endpoint = await announced;
    } catch (error) {
      await this.close();
      throw error;
    } finally {
      clearTimeout(timeout);
    }
  }

  async send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    if (this.closed || !this.endpoint)
      throw new LocalError('closed', 'The transport is not connected');
    const endpoint = this.endpoint;
    const signal = this.lifetime.signal;
    const body = JSON.stringify(message);
    const headers = {
      ...(await resolveHeaders(this.options.headers)),
      'content-type': 'application/json',
    };
    const response = await sendAuthorized(
      this.options.auth,
      // Credentials are the server's (the URL the application named), wherever it posts.
      { endpoint: this.url, headers, signal },
      (authorized) =>
        fetchFollowing(
          this.fetcher,
          {
            url: endpoint,
            // The caller's headers belong to the server it named, not to an endpoint elsewhere.
            home: this.url.origin,
            method: 'POST',
            headers: authorized,
            body,
            signal,
          },
          this.options,
        ),
    ).catch((error: unknown) => {
      throw error instanceof RedirectError || isAuthorizationError(error)
        ? error
        : connectionError('POST', endpoint, error);
    });
    await response.body?.cancel().catch(() => {});
    if (!response.ok)
      throw new HttpStatusError(
        response.status,
        `HTTP ${response.status} from ${this.endpoint.href}`,
      );
  }

  /**
   * The POST endpoint the `endpoint` event names: on the stream's origin, or another one a
   * `followRedirects` function allows (the event is a redirect of the client's messages).
   */
  private endpointOf(data: string, streamUrl: URL): URL | LocalError {
    let endpoint: URL;
    try {
      endpoint = new URL(data, streamUrl);
    } catch {
      return new LocalError('transport', `The endpoint event of ${this.url.href} is not a URL`);
    }
    const policy = this.options.followRedirects;
    if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:')
      return new LocalError('transport', `The endpoint ${endpoint.href} is not an HTTP URL`);
    if (
      endpoint.origin === this.url.origin ||
      (typeof policy === 'function' && redirectAllowed(policy, this.url, endpoint))
    )
      return endpoint;
    return new LocalError(
      'transport',
      `The endpoint ${endpoint.href} is not on ${this.url.origin}`,
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.lifetime.abort();
    this.onclose?.();
  }
}

/** An OAuth client's failure: passed on as it is, not as a connection failure. */
function isAuthorizationError(error: unknown): boolean {
  return error instanceof LocalError && error.code === 'authorization';
}

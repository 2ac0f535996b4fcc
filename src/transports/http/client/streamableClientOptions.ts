/**
 * @module What a {@link StreamableHttpClientTransport} can be told: headers, authorization,
 * fetch, limits, the standalone stream, reconnection and busy retries, redirects.
 */
import type { HeadersSource } from './clientHeaders.js';
import type { HttpAuthorization } from './httpAuthorization.js';
import type { RedirectOptions } from './redirects.js';

/**
 * Options of {@link StreamableHttpClientTransport}. Redirects (`followRedirects`, `maxRedirects`)
 * are followed only to the endpoint's own origin by default; see {@link RedirectOptions}.
 */
export interface StreamableHttpClientOptions extends RedirectOptions {
  /** Extra headers on every request. */
  headers?: HeadersSource;
  /**
   * Authorization of every request: the header to send, and new credentials on 401 (or 403
   * `insufficient_scope`), after which the request is sent again. {@link OAuthClient} is MCP
   * authorization (OAuth 2.1).
   */
  auth?: HttpAuthorization;
  /** The fetch to use. Default: the global one. */
  fetch?: typeof fetch;
  /** Largest accepted message. Default 4 MiB. */
  maxMessageBytes?: number;
  /** Deepest accepted nesting. Default 64. */
  maxDepth?: number;
  /** Open the GET stream for server-initiated messages after initialization. Default true. */
  standaloneStream?: boolean;
  /** Reconnection delay when the server announced none. Default 1000 ms. */
  reconnectDelayMs?: number;
  /**
   * Failed reconnections in a row before a stream is given up. Default 5, with the delay doubling
   * each time. A server that cannot be reached at all (connection refused, unknown host,
   * unreachable network, TLS refused) is tried only twice, `retry` apart: a lost stream then fails
   * its requests within seconds, with a {@link ConnectionError} naming the URL and the code.
   */
  maxReconnectAttempts?: number;
  /**
   * Times a POST answered 429 or 503 with `Retry-After` (a server whose request queue is full,
   * or briefly unable to serve) is sent again after the delay it asks for. Default 10.
   */
  maxBusyRetries?: number;
}

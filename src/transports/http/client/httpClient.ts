/**
 * @module Connecting to an MCP server by URL whatever its transport (the spec's backwards
 * compatibility procedure): POST `initialize` as Streamable HTTP; if that fails with 400, 404 or
 * 405, open a GET event stream and expect the 2024-11-05 `endpoint` event instead.
 */
import { LocalError } from '../../../jsonrpc/errors.js';
import { startedTwice } from '../../../jsonrpc/transportClaims.js';
import type {
  MessageInfo,
  SendOptions,
  Transport,
  TransportNetwork,
} from '../../../jsonrpc/transport.js';
import type { JsonRpcMessage, RequestId } from '../../../jsonrpc/types.js';
import { LegacySseClientTransport, type LegacySseClientOptions } from './legacySseClient.js';
import { HttpStatusError } from './httpStatusError.js';
import { StreamableHttpClientTransport } from './streamableClient.js';
import type { StreamableHttpClientOptions } from './streamableClientOptions.js';

/** Options of {@link HttpClientTransport}. */
export type HttpClientOptions = StreamableHttpClientOptions & LegacySseClientOptions;

/** Which transport the server turned out to speak. */
export type HttpTransportKind = 'streamable-http' | 'http+sse';

/** A client transport for a server URL that falls back to HTTP+SSE for 2024-11-05 servers. */
export class HttpClientTransport implements Transport {
  readonly networkTransport = 'tcp' as const;
  onmessage?: (message: unknown, info?: MessageInfo) => void;
  ondecodeerror?: Transport['ondecodeerror'];
  onfailure?: Transport['onfailure'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private inner: Transport;
  private decided = false;
  private started = false;
  private kindValue: HttpTransportKind = 'streamable-http';

  constructor(
    readonly url: URL | string,
    private readonly options: HttpClientOptions = {},
  ) {
    this.inner = this.wire(new StreamableHttpClientTransport(url, options));
  }

  /** The transport in use (settled by the first message, `initialize`). */
  get kind(): HttpTransportKind {
    return this.kindValue;
  }

  /** What telemetry records of the network: the server's (the same for either transport). */
  get network(): TransportNetwork | undefined {
    return this.inner.network;
  }

  /** The session id the server assigned, if any (Streamable HTTP). */
  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    // The inner transport refuses a second start with its own name: say ours.
    if (this.started) throw startedTwice('HttpClientTransport');
    this.started = true;
    await this.inner.start();
  }

  async send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): Promise<void> {
    if (this.decided) return this.inner.send(message, options);
    this.decided = true;
    try {
      await this.inner.send(message, options);
    } catch (error) {
      if (!(error instanceof HttpStatusError) || ![400, 404, 405].includes(error.status))
        throw error;
      // Not a Streamable HTTP endpoint: try the 2024-11-05 transport, then send initialize again.
      const legacy = this.wire(new LegacySseClientTransport(this.url, this.options));
      try {
        await legacy.start();
      } catch (legacyError) {
        throw new LocalError(
          'transport',
          `Neither Streamable HTTP (HTTP ${error.status}) nor HTTP+SSE answered at ${String(this.url)}`,
          { cause: legacyError },
        );
      }
      this.inner.onclose = undefined;
      void this.inner.close();
      this.inner = legacy;
      this.kindValue = 'http+sse';
      await legacy.send(message);
    }
  }

  setProtocolVersion(version: string | undefined, options?: { stateless?: boolean }): void {
    // A stateless revision is Streamable HTTP only: no HTTP+SSE fallback to try. A probe of it
    // that failed (version reset) leaves the choice to the next message, initialize.
    if (options?.stateless === true) this.decided = true;
    else if (version === undefined) this.decided = false;
    this.inner.setProtocolVersion?.(version, options);
  }

  /** The server's origin (see Transport.endpointKey). */
  get endpointKey(): string | undefined {
    return this.inner.endpointKey;
  }

  /** See Transport.cacheContext (the Streamable HTTP transport's; HTTP+SSE has none). */
  get cacheContext(): Transport['cacheContext'] {
    return this.inner.cacheContext?.bind(this.inner);
  }

  closeStream(requestId: RequestId): void {
    this.inner.closeStream?.(requestId);
  }

  async close(): Promise<void> {
    await this.inner.close();
  }

  private wire<T extends Transport>(transport: T): T {
    transport.onmessage = (m, i) => this.onmessage?.(m, i);
    transport.ondecodeerror = (e, h) => this.ondecodeerror?.(e, h);
    transport.onfailure = (id, e) => this.onfailure?.(id, e);
    transport.onclose = () => this.onclose?.();
    transport.onerror = (e) => this.onerror?.(e);
    return transport;
  }
}

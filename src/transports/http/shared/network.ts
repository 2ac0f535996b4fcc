/**
 * @module What the HTTP transports tell telemetry of the network (OpenTelemetry's
 * `network.protocol.*`, `server.address`, `server.port`), worked out once per transport.
 */
import type { TransportNetwork } from '../../../jsonrpc/transport.js';

/** A server session's: its messages come over HTTP (the version is per request). */
export const HTTP_SERVER_NETWORK: TransportNetwork = Object.freeze({ protocolName: 'http' });

/**
 * A client transport's: the server it was told to reach (the URL's host, an IPv6 address without
 * its brackets, and port, the scheme's default when the URL has none) over HTTP, version 1.1
 * when the transport uses the runtime's `fetch` (Node's speaks HTTP/1.1 unless told otherwise);
 * a `fetch` of the caller's own may speak another, so none is claimed for it.
 */
export function httpClientNetwork(url: URL, ownFetch: boolean): TransportNetwork {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return Object.freeze({
    protocolName: 'http',
    ...(ownFetch ? {} : { protocolVersion: '1.1' }),
    serverAddress: host,
    serverPort: port,
  });
}

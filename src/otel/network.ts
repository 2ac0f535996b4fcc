/**
 * @module The network attributes of the convention (`network.transport`, `network.protocol.*`,
 * `server.address`/`server.port`, `client.address`/`client.port`) from what transports tell:
 * a transport's {@link TransportNetwork} (read once per session) and, per message over HTTP, the
 * request's version and socket.
 */
import type { Attributes } from '@opentelemetry/api';
import type { PeerAddress, TransportNetwork } from '../jsonrpc/transport.js';
import { ATTR } from './semconv.js';

/** What a session's transport says of the network. */
export interface NetworkFacts {
  readonly networkTransport: string | undefined;
  readonly network: TransportNetwork | undefined;
}

/** The convention's `network.protocol.version` of an HTTP version as Node gives it (`2.0` is `2`). */
function protocolVersionOf(httpVersion: string): string {
  return httpVersion.endsWith('.0') && httpVersion !== '1.0'
    ? httpVersion.slice(0, -2)
    : httpVersion;
}

/**
 * Adds the low-cardinality network attributes (fit for histograms) to `target`: the transport,
 * the protocol (over HTTP, the version of the request that carried the message when known) and,
 * on a client, the server it reaches.
 */
export function addNetwork(
  target: Attributes,
  facts: NetworkFacts,
  httpVersion: string | undefined,
): void {
  if (facts.networkTransport !== undefined) target[ATTR.networkTransport] = facts.networkTransport;
  const network = facts.network;
  const name = network?.protocolName ?? (httpVersion === undefined ? undefined : 'http');
  if (name !== undefined) target[ATTR.networkProtocolName] = name;
  const version =
    httpVersion === undefined ? network?.protocolVersion : protocolVersionOf(httpVersion);
  if (version !== undefined) target[ATTR.networkProtocolVersion] = version;
  if (network?.serverAddress !== undefined) {
    target[ATTR.serverAddress] = network.serverAddress;
    if (network.serverPort !== undefined) target[ATTR.serverPort] = network.serverPort;
  }
}

/** Adds `client.address` and `client.port` of the peer a server's message came from (spans only). */
export function addPeer(target: Attributes, peer: PeerAddress | undefined): void {
  const address = peer?.remoteAddress;
  if (address === undefined) return;
  target[ATTR.clientAddress] = address;
  const port = peer?.remotePort;
  if (port !== undefined) target[ATTR.clientPort] = port;
}

/**
 * @module Who sends the messages of a Streamable HTTP request, as the handler hands it on with
 * each message it delivers: the identity, or for an anonymous caller the address its rate limits
 * and session quota count by, and the socket and HTTP version for telemetry.
 */
import type { Identity, PeerAddress } from '../../../jsonrpc/transport.js';
import { clientAddressKey } from './clientAddress.js';
import type { HttpExchange } from './exchange.js';
import type { StreamableHttpOptions } from './handlerOptions.js';

/** What the handler passes along with each message it delivers. */
export interface Caller {
  readonly identity: Identity | undefined;
  /** The rate-limit key of an anonymous caller (see clientAddress.ts). */
  readonly clientAddress: string | undefined;
  /** The socket the request came on, and its HTTP version: for telemetry. */
  readonly peer: PeerAddress | undefined;
  readonly httpVersion: string | undefined;
}

/** Who sends the messages of a request: its identity and, for rate limits, its address. */
export function callerOf(
  exchange: HttpExchange,
  identity: Identity | undefined,
  addressOf: StreamableHttpOptions['clientAddress'],
): Caller {
  const { peer, httpVersion } = exchange;
  if (identity) return { identity, clientAddress: undefined, peer, httpVersion };
  const address = addressOf ? addressOf(exchange) : exchange.clientAddress;
  const clientAddress = address ? clientAddressKey(address) : undefined;
  return { identity, clientAddress, peer, httpVersion };
}

/**
 * @module The `_meta` of revision 2026-07-28's requests: every request carries the revision, the
 * client's capabilities and its identity (there is no handshake to remember them), and a result
 * carries the server's identity.
 */
import type { JsonObject } from '../../../jsonrpc/types.js';
import type { ClientCapabilities, Implementation } from '../../types.js';
import type { ModernProtocolVersion } from '../../versions.js';

/** The `_meta` keys of the stateless revision. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** The `_meta` every request of a stateless session carries. */
export function statelessRequestMeta(
  version: ModernProtocolVersion,
  client: { capabilities: ClientCapabilities; info: Implementation },
): JsonObject {
  return {
    [META.protocolVersion]: version,
    [META.clientCapabilities]: client.capabilities,
    [META.clientInfo]: client.info,
  };
}

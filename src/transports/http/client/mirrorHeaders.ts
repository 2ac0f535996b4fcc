/**
 * @module The headers a POST of the stateless revision mirrors from its message (2026-07-28,
 * SEP-2243): `Mcp-Method`, and `Mcp-Name` for the methods that name what they act on, so that
 * proxies and load balancers route without reading the body.
 */
import type { JsonRpcMessage } from '../../../jsonrpc/types.js';
import { headerValue } from '../shared/headerValue.js';
import { NAMED_BY } from '../shared/mcpName.js';

/** `Mcp-Method` and `Mcp-Name` of a stateless revision's message (2026-07-28, SEP-2243). */
export function mirrorHeaders(
  message: JsonRpcMessage | JsonRpcMessage[],
  headers: Record<string, string>,
): void {
  if (Array.isArray(message) || !('method' in message)) return;
  headers['mcp-method'] = message.method;
  const param = NAMED_BY[message.method];
  const value = param === undefined ? undefined : message.params?.[param];
  if (typeof value === 'string') headers['mcp-name'] = headerValue(value);
}

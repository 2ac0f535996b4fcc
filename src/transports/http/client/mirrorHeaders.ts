/**
 * @module The headers a POST of the stateless revision mirrors from its message (2026-07-28,
 * SEP-2243): `Mcp-Method`, and `Mcp-Name` for the methods that name what they act on, so that
 * proxies and load balancers route without reading the body.
 */
import { TOOLS_CALL } from '../../../jsonrpc/methods.js';
import type { JsonRpcMessage } from '../../../jsonrpc/types.js';
import { headerValue } from '../shared/headerValue.js';

/** The request methods whose `Mcp-Name` header mirrors a param, and which param. */
const NAMED: Readonly<Record<string, string>> = {
  [TOOLS_CALL]: 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/** `Mcp-Method` and `Mcp-Name` of a stateless revision's message (2026-07-28, SEP-2243). */
export function mirrorHeaders(
  message: JsonRpcMessage | JsonRpcMessage[],
  headers: Record<string, string>,
): void {
  if (Array.isArray(message) || !('method' in message)) return;
  headers['mcp-method'] = message.method;
  const param = NAMED[message.method];
  const value = param === undefined ? undefined : message.params?.[param];
  if (typeof value === 'string') headers['mcp-name'] = headerValue(value);
}

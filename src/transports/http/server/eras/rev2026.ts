/**
 * @module What the Streamable HTTP server checks of a 2026-07-28 request's headers
 * (basic/transports/streamable-http §Server Validation, SEP-2243): the revision a request is
 * routed on, and that `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` say what the body says
 * (a proxy routes on the headers without reading the body, so they must not lie): -32020 with
 * status 400 when one does not. Beside rev2025.ts, so the revision literals live in one place.
 */
import { isPlainObject } from '../../../../jsonrpc/guards.js';
import type { JsonRpcRequest } from '../../../../jsonrpc/types.js';
import { headerMismatch } from '../../../../protocol/eras/rev2026/errors.js';
import { argumentAt, type ParamHeader } from '../../../../protocol/eras/rev2026/paramHeaders.js';
import { META } from '../../../../protocol/eras/rev2026/requestMeta.js';
import type { RpcError } from '../../../../jsonrpc/errors.js';
import { decodeHeaderValue } from '../../shared/headerValue.js';
import { NAMED_BY } from '../../shared/mcpName.js';

/**
 * True when a request belongs to the 2026 front: its `MCP-Protocol-Version` is not a 2025 revision
 * the server serves (a 2026 one, or one nobody serves, which the front answers -32022 with the
 * list). No header: a 2025 client of 2025-03-26 or before.
 */
export function routesModern(
  header: (name: string) => string | null,
  handshakeVersions: readonly string[],
): boolean {
  const version = header('mcp-protocol-version');
  return version !== null && !handshakeVersions.includes(version);
}

/** Why the headers of a 2026 request disagree with its body (-32020), or undefined. */
export function headerProblem(
  header: (name: string) => string | null,
  request: JsonRpcRequest | { method: string; params?: Record<string, unknown> },
): RpcError | undefined {
  const method = header('mcp-method');
  if (method === null) return headerMismatch('the Mcp-Method header is missing');
  if (method !== request.method)
    return headerMismatch(`Mcp-Method ${JSON.stringify(method)} is not the body's method`);
  const meta = request.params?.['_meta'];
  const version = isPlainObject(meta) ? meta[META.protocolVersion] : undefined;
  // A body without a version is malformed _meta (-32602), which the front answers.
  if (typeof version === 'string' && header('mcp-protocol-version') !== version)
    return headerMismatch("MCP-Protocol-Version is not the version in the body's _meta");
  const param = NAMED_BY[request.method];
  if (param === undefined) return undefined;
  const name = header('mcp-name');
  if (name === null) return headerMismatch('the Mcp-Name header is missing');
  const decoded = decodeHeaderValue(name);
  if (decoded === undefined) return headerMismatch('Mcp-Name is not valid base64 of UTF-8');
  if (decoded !== request.params?.[param])
    return headerMismatch(`Mcp-Name is not the body's ${param}`);
  return undefined;
}

/** What a declared argument's header must say: the value itself, as the revision compares it. */
function matches(header: string, value: unknown): boolean {
  if (typeof value === 'string') return header === value;
  if (typeof value === 'boolean') return header === String(value);
  // Integers compare numerically ("42.0" is 42), within JavaScript's safe range.
  if (Number.isSafeInteger(value))
    return /^[+-]?\d+(\.0*)?$/.test(header.trim()) && Number(header) === value;
  return false;
}

/**
 * Why the `Mcp-Param-*` headers of a `tools/call` disagree with its arguments (-32020), or
 * undefined (basic/transports/streamable-http §Custom headers): an argument given a value must
 * have its header, with that value (decoded from `=?base64?…?=`); an argument absent or null must
 * have none. `declared` are the tool's `x-mcp-header` annotations.
 */
export function paramHeaderProblem(
  header: (name: string) => string | null,
  declared: readonly ParamHeader[],
  args: unknown,
): RpcError | undefined {
  for (const { name, path } of declared) {
    const value = argumentAt(args, path);
    const sent = header(`mcp-param-${name.toLowerCase()}`);
    if (value === undefined || value === null) {
      if (sent !== null)
        return headerMismatch(`Mcp-Param-${name} is sent, but the arguments give it no value`);
      continue;
    }
    if (sent === null) return headerMismatch(`the Mcp-Param-${name} header is missing`);
    const decoded = decodeHeaderValue(sent);
    if (decoded === undefined)
      return headerMismatch(`Mcp-Param-${name} is not valid base64 of UTF-8`);
    if (!matches(decoded, value))
      return headerMismatch(`Mcp-Param-${name} is not the value of argument "${path.join('.')}"`);
  }
  return undefined;
}

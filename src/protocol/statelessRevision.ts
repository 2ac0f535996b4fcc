/**
 * @module What the stateless revision (2026-07-28) asks of a client's messages: the revision,
 * the client's capabilities and its identity in every request's `_meta`; `server/discover`
 * instead of `initialize`; `resultType` on every result (absent from an older server means
 * `complete`; an unknown one is invalid); and, over HTTP, headers mirroring the request
 * (`Mcp-Method`, `Mcp-Name` from the transport, and `Mcp-Param-*` for `x-mcp-header`
 * properties of a tool's input schema).
 */
import { LocalError } from '../jsonrpc/errors.js';
import { isPlainObject } from '../jsonrpc/guards.js';
import type { JsonObject } from '../jsonrpc/types.js';
import type { ClientCapabilities, Implementation, ServerCapabilities, Tool } from './types.js';
import type { ModernProtocolVersion } from './versions.js';
import { Discover } from './methods.js';

/** The `_meta` keys of the stateless revision. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
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

/** What `server/discover` says about the server. */
export interface DiscoverResult {
  readonly supportedVersions: readonly string[];
  readonly capabilities: ServerCapabilities;
  readonly serverInfo: Implementation | undefined;
  readonly instructions: string | undefined;
}

function invalid(problem: string): LocalError {
  return new LocalError('invalid-response', `The server/discover result ${problem}`);
}

/** Reads a `server/discover` result; throws `invalid-response` for a malformed one. */
export function parseDiscoverResult(raw: JsonObject): DiscoverResult {
  checkResultType(raw, Discover.method);
  const versions = raw['supportedVersions'];
  if (!Array.isArray(versions) || !versions.every((v) => typeof v === 'string'))
    throw invalid('has no "supportedVersions" array of strings');
  const capabilities = raw['capabilities'];
  if (!isPlainObject(capabilities)) throw invalid('has no "capabilities" object');
  const meta = isPlainObject(raw['_meta']) ? raw['_meta'] : undefined;
  const info = meta?.[META.serverInfo];
  const serverInfo =
    isPlainObject(info) && typeof info['name'] === 'string' && typeof info['version'] === 'string'
      ? (info as unknown as Implementation)
      : undefined;
  const instructions = raw['instructions'];
  return {
    supportedVersions: versions,
    capabilities: capabilities,
    serverInfo,
    instructions: typeof instructions === 'string' ? instructions : undefined,
  };
}

/** The kinds of result a tools client handles. */
export type ResultKind = 'complete' | 'input_required';

/** The `resultType` of a result: absent is `complete`; anything unknown is refused. */
export function checkResultType(raw: JsonObject, method: string): ResultKind {
  const type = raw['resultType'];
  if (type === undefined || type === 'complete') return 'complete';
  if (type === 'input_required') return 'input_required';
  throw new LocalError(
    'invalid-response',
    `The ${method} result has a resultType this client does not know: ${JSON.stringify(type).slice(0, 100)}`,
  );
}

/** The header names `x-mcp-header` may give: an HTTP token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** One `x-mcp-header` annotation of a tool: the header name and the argument path it mirrors. */
export interface ParamHeader {
  readonly name: string;
  readonly path: readonly string[];
}

/**
 * The `x-mcp-header` annotations of a tool's input schema, or a problem that makes the tool
 * unusable (the client must then drop it): on properties reached through `properties` only, of
 * type string, integer or boolean, with token names unique regardless of case.
 */
export function paramHeadersOf(tool: Tool): { headers: ParamHeader[] } | { problem: string } {
  const headers: ParamHeader[] = [];
  const seen = new Set<string>();
  const walk = (schema: Record<string, unknown>, path: string[]): string | undefined => {
    const properties = schema['properties'];
    if (!isPlainObject(properties)) return undefined;
    for (const [property, child] of Object.entries(properties)) {
      if (!isPlainObject(child)) continue;
      const at = [...path, property];
      const name = child['x-mcp-header'];
      if (name !== undefined) {
        const where = `property "${at.join('.')}"`;
        if (typeof name !== 'string' || !TOKEN.test(name))
          return `${where} has an x-mcp-header that is not a header name`;
        if (seen.has(name.toLowerCase())) return `x-mcp-header "${name}" is declared twice`;
        const type = child['type'];
        if (type !== 'string' && type !== 'integer' && type !== 'boolean')
          return `${where} has an x-mcp-header but is not a string, integer or boolean`;
        seen.add(name.toLowerCase());
        headers.push({ name, path: at });
      }
      const problem = walk(child, at);
      if (problem) return problem;
    }
    return undefined;
  };
  const problem = walk(tool.inputSchema, []);
  return problem ? { problem } : { headers };
}

/**
 * The `Mcp-Param-*` headers of one call, values as strings (the HTTP transport encodes them): an
 * argument absent from the call sends none.
 */
export function paramHeaderValues(
  headers: readonly ParamHeader[],
  args: Record<string, unknown>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name, path } of headers) {
    let value: unknown = args;
    for (const key of path) value = isPlainObject(value) ? value[key] : undefined;
    if (typeof value === 'string') out[`mcp-param-${name.toLowerCase()}`] = value;
    else if (typeof value === 'boolean' || (typeof value === 'number' && Number.isInteger(value)))
      out[`mcp-param-${name.toLowerCase()}`] = String(value);
  }
  return out;
}

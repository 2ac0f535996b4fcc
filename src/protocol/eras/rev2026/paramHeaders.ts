/**
 * @module The `x-mcp-header` annotation of revision 2026-07-28: a tool's input schema names
 * arguments the HTTP transport mirrors as `Mcp-Param-*` headers, so a gateway can route on them
 * without reading the body.
 */
import { isPlainObject } from '../../../jsonrpc/guards.js';
import type { Tool } from '../../types.js';

/** The header names `x-mcp-header` may give: an HTTP token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** One `x-mcp-header` annotation of a tool: the header name and the argument path it mirrors. */
export interface ParamHeader {
  readonly name: string;
  readonly path: readonly string[];
}

/** How many `x-mcp-header` annotations a schema holds anywhere (statically reachable or not). */
function annotationsAnywhere(node: unknown): number {
  if (Array.isArray(node))
    return node.reduce((n: number, item) => n + annotationsAnywhere(item), 0);
  if (!isPlainObject(node)) return 0;
  let count = node['x-mcp-header'] !== undefined ? 1 : 0;
  for (const value of Object.values(node)) count += annotationsAnywhere(value);
  return count;
}

/**
 * The `x-mcp-header` annotations of a tool's input schema, or a problem that makes the tool
 * unusable (a client must then drop it; a server refuses to register it): on properties reached
 * from the root through `properties` only (not `items`, compositions, conditionals or `$ref`), of
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
  if (problem) return { problem };
  if (annotationsAnywhere(tool.inputSchema) !== headers.length)
    return {
      problem:
        'an x-mcp-header is not statically reachable from the schema root through "properties" alone',
    };
  return { headers };
}

/** The value at `path` of a call's arguments (undefined when absent). */
export function argumentAt(args: unknown, path: readonly string[]): unknown {
  let value: unknown = args;
  for (const key of path) value = isPlainObject(value) ? value[key] : undefined;
  return value;
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
    const value = argumentAt(args, path);
    if (typeof value === 'string') out[`mcp-param-${name.toLowerCase()}`] = value;
    else if (typeof value === 'boolean' || Number.isSafeInteger(value))
      out[`mcp-param-${name.toLowerCase()}`] = String(value);
  }
  return out;
}

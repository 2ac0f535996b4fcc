/**
 * @module Naming rules: tool names (MCP 2025-11-25 §Tool Names) and `_meta` key names
 * (2025-11-25 §General fields). toolwire enforces them at registration so a server never lists a
 * name a client may reject.
 */

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Why `name` is not a valid tool name, or undefined when it is. */
export function toolNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string') return 'a tool name must be a string';
  if (name.length === 0) return 'a tool name must not be empty';
  if (name.length > 128) return `a tool name must be at most 128 characters (got ${name.length})`;
  if (!TOOL_NAME.test(name)) {
    const bad = [...name].find((c) => !/[A-Za-z0-9_.-]/.test(c)) ?? '';
    return `a tool name may only contain A-Z, a-z, 0-9, "_", "-" and "." (found ${JSON.stringify(bad)})`;
  }
  return undefined;
}

const LABEL = '[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
const META_KEY = new RegExp(
  `^(?:${LABEL}(?:\\.${LABEL})*/)?(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$`,
);

/** Why a `_meta` key is malformed, or undefined when it is well formed. */
export function metaKeyProblem(key: string): string | undefined {
  if (META_KEY.test(key)) return undefined;
  return `"${key}" is not a valid _meta key (optional dotted prefix ending in "/", then a name that starts and ends with a letter or digit)`;
}

/** True when the key's prefix is reserved for MCP itself (second label `modelcontextprotocol` or `mcp`). */
export function isReservedMetaKey(key: string): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) return false;
  const labels = key.slice(0, slash).split('.');
  return labels[1] === 'modelcontextprotocol' || labels[1] === 'mcp';
}

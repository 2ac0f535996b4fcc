/**
 * @module The strict variant of an official MCP JSON Schema. The official schemas leave most
 * objects open (no `additionalProperties: false`), so a field a revision does not define would
 * pass: a `title` on a tool sent to a 2024-11-05 peer, `icons` before 2025-11-25. The strict
 * variant closes every object that lists its properties, except user-supplied JSON (tool
 * schemas, arguments, structured content, `_meta`) and the JSON-RPC envelopes, whose payloads
 * are checked against their own definitions. toolwire's own tests check every message they
 * exchange with it, and it is checked against the official examples.
 */

/** A JSON Schema node. */
type Node = Record<string, unknown>;

/** Object properties whose values are user data or open by design: never closed. */
const OPEN = new Set([
  'inputSchema',
  'outputSchema',
  'requestedSchema',
  'structuredContent',
  'arguments',
  '_meta',
  'experimental',
  'metadata',
  'data',
  'params',
  'content', // ElicitResult.content is user data; content blocks are closed through their $refs
  'properties',
  'error', // URLElicitationRequiredError narrows `error` with allOf; the Error definition stays closed
]);

/**
 * The JSON-RPC envelopes: a message's own definition (a request, a result) is checked strictly
 * on its own, so the envelope around it only needs its shape.
 */
const ENVELOPES = new Set([
  'JSONRPCRequest',
  'JSONRPCNotification',
  'JSONRPCResponse',
  'JSONRPCResultResponse',
]);

/**
 * Definitions of `_meta` objects (2026-07-28 names the keys it defines in them, but any other
 * prefixed key is allowed): left open like the `_meta` properties that refer to them.
 */
const OPEN_DEFINITIONS = new Set([
  'MetaObject',
  'RequestMetaObject',
  'ResultMetaObject',
  'NotificationMetaObject',
]);

/**
 * Replaces a definition made of `allOf` object members (GetTaskResult = Result + Task...) with one
 * object holding all their properties, so closing it does not reject one member's fields for the
 * other's sake.
 */
function mergeAllOf(defs: Node): void {
  const resolve = (member: unknown): Node | undefined => {
    const m = member as Node;
    const ref = typeof m['$ref'] === 'string' ? m['$ref'].split('/').pop() : undefined;
    const target = ref !== undefined ? (defs[ref] as Node | undefined) : m;
    if (target && Array.isArray(target['allOf'])) return undefined; // nested compositions stay as they are
    return target;
  };
  for (const [name, def] of Object.entries(defs)) {
    const d = def as Node;
    if (!Array.isArray(d['allOf'])) continue;
    const members = (d['allOf'] as unknown[]).map(resolve);
    if (members.some((m) => !m || typeof m['properties'] !== 'object')) continue;
    const properties: Node = {};
    const required = new Set<string>();
    for (const m of members as Node[]) {
      Object.assign(properties, structuredClone(m['properties']));
      for (const r of (m['required'] as string[] | undefined) ?? []) required.add(r);
    }
    defs[name] = {
      type: 'object',
      properties,
      required: [...required],
      ...(d['description'] ? { description: d['description'] } : {}),
    };
  }
}

/** Closes every object of `node` that lists its properties, except the open ones. */
function close(node: unknown): void {
  if (typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) {
    node.forEach(close);
    return;
  }
  const n = node as Node;
  const props = n['properties'];
  if (
    props &&
    typeof props === 'object' &&
    !('additionalProperties' in n) &&
    (n['type'] === 'object' || n['type'] === undefined)
  ) {
    n['additionalProperties'] = false;
  }
  if (props && typeof props === 'object') {
    for (const [key, value] of Object.entries(props as Node)) {
      if (!OPEN.has(key)) close(value);
    }
  }
  for (const key of ['items', 'anyOf', 'oneOf', 'allOf']) if (key in n) close(n[key]);
}

/** Where a schema keeps its definitions: `definitions` (draft-07) or `$defs` (2020-12). */
export function definitionsOf(schema: Node): Node {
  return (schema['$defs'] ?? schema['definitions'] ?? {}) as Node;
}

/**
 * The strict variant of an official schema document (changed in place, and returned): `allOf`
 * definitions merged, then every object that lists its properties closed, envelopes and user data
 * excepted (and `_meta` definitions).
 */
export function strictSchema(schema: Node): Node {
  const defs = definitionsOf(schema);
  mergeAllOf(defs);
  for (const [name, def] of Object.entries(defs))
    if (!ENVELOPES.has(name) && !OPEN_DEFINITIONS.has(name)) close(def);
  return schema;
}

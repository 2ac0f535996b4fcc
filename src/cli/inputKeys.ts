/**
 * @module Which top-level keys a tool's input schema accepts, and the schema of each: the names
 * it declares (`properties`, `required`), keys matching its `patternProperties`, and any other key
 * only where it explicitly allows more (`additionalProperties` or `unevaluatedProperties` `true`
 * or a schema). The schema's root is read with what applies in place: `allOf`/`anyOf`/`oneOf`,
 * `if`/`then`/`else` and `$ref`s within the document. A schema this cannot read whole (a `$ref`
 * to another document, a `$dynamicRef`) accepts every key: its names are not all known.
 */

/** What an input schema says of the keys of the arguments object. */
export interface InputKeys {
  /** The names the schema declares, in the order found. */
  readonly names: readonly string[];
  /**
   * The schema of `key` (`{}` when it is accepted without one), or undefined when the schema
   * does not accept it.
   */
  schemaOf(key: string): unknown;
}

type SchemaNode = Record<string, unknown>;

const isNode = (value: unknown): value is SchemaNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const own = (record: SchemaNode, key: string): boolean =>
  Object.prototype.hasOwnProperty.call(record, key);

/** The node a `$ref` within the document points to (`#`, `#/$defs/x`...), or undefined. */
function resolve(root: SchemaNode, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isNode(node) || !own(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/** The root node and every node that applies in place to it; `open` when one cannot be read. */
function rootNodes(schema: SchemaNode): { nodes: SchemaNode[]; open: boolean } {
  const nodes: SchemaNode[] = [];
  const seen = new Set<SchemaNode>();
  let open = false;
  const add = (node: unknown): void => {
    if (!isNode(node) || seen.has(node)) return;
    if (seen.size >= 1000) {
      open = true;
      return;
    }
    seen.add(node);
    nodes.push(node);
    for (const key of ['allOf', 'anyOf', 'oneOf'])
      if (Array.isArray(node[key])) for (const sub of node[key] as unknown[]) add(sub);
    for (const key of ['if', 'then', 'else']) add(node[key]);
    if (typeof node['$dynamicRef'] === 'string' || typeof node['$recursiveRef'] === 'string')
      open = true;
    if (typeof node['$ref'] === 'string') {
      const target = resolve(schema, node['$ref']);
      if (target === undefined) open = true;
      else add(target);
    }
  };
  add(schema);
  return { nodes, open };
}

/** A pattern of `patternProperties` (JSON Schema regexes are ECMA-262, Unicode). */
function patternOf(source: string): RegExp | undefined {
  try {
    return new RegExp(source, 'u');
  } catch {
    return undefined;
  }
}

/** An explicit allowance of further keys: `true`, or a schema (`{}` included). */
const allowance = (value: unknown): unknown =>
  value === true ? {} : isNode(value) ? value : undefined;

/** Reads the top-level keys `inputSchema` accepts. */
export function inputKeys(inputSchema: unknown): InputKeys {
  if (!isNode(inputSchema)) return { names: [], schemaOf: () => ({}) };
  const { nodes, open } = rootNodes(inputSchema);
  const declared = new Map<string, unknown>();
  const patterns: Array<{ pattern: RegExp | undefined; schema: unknown }> = [];
  let further: unknown;
  for (const node of nodes) {
    const properties = node['properties'];
    if (isNode(properties))
      for (const name of Object.keys(properties))
        if (declared.get(name) === undefined) declared.set(name, properties[name] ?? {});
    const required = node['required'];
    if (Array.isArray(required))
      for (const name of required as unknown[])
        if (typeof name === 'string' && !declared.has(name)) declared.set(name, undefined);
    const patternProperties = node['patternProperties'];
    if (isNode(patternProperties))
      for (const source of Object.keys(patternProperties))
        patterns.push({ pattern: patternOf(source), schema: patternProperties[source] });
    further ??= allowance(node['additionalProperties']) ?? allowance(node['unevaluatedProperties']);
  }
  // A pattern that is not a valid regular expression here may match anything.
  const anyKey = open || patterns.some((p) => p.pattern === undefined) ? {} : further;
  return {
    names: [...declared.keys()],
    schemaOf: (key) => {
      if (declared.has(key)) return declared.get(key) ?? {};
      const matched = patterns.find((p) => p.pattern?.test(key));
      return matched ? matched.schema : anyKey;
    },
  };
}

/**
 * @module Which object keys an input schema declares, and where: arguments may carry a
 * `constructor` or `prototype` key only in an object whose schema declares it (in `properties` or
 * `required`), found by walking the arguments beside the schema. The walk follows `properties`,
 * `additionalProperties`, `items`, `prefixItems`, `allOf`/`anyOf`/`oneOf`, `if`/`then`/`else` and
 * `$ref`s within the document; a place it cannot follow (a remote `$ref`, `patternProperties`)
 * declares nothing, so such a key there is refused, as every undeclared one is.
 */
import { isPlainObject } from '../../jsonrpc/guards.js';

/** Keywords whose values are data, not schemas: their keys declare nothing. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);
/** Keywords whose values map names to schemas. */
const SCHEMA_MAPS = new Set([
  'properties',
  'patternProperties',
  'dependentSchemas',
  '$defs',
  'definitions',
]);

/** The names a schema node declares for the object it describes. */
function namesOf(node: Record<string, unknown>, names: Set<string>): void {
  const properties = node['properties'];
  if (isPlainObject(properties)) for (const name of Object.keys(properties)) names.add(name);
  const required = node['required'];
  if (Array.isArray(required))
    for (const name of required as unknown[]) if (typeof name === 'string') names.add(name);
}

/** The property names a JSON Schema declares anywhere (`properties` keys, `required` entries). */
export function declaredNames(schema: unknown): Set<string> {
  const names = new Set<string>();
  const visit = (node: unknown, depth: number): void => {
    if (typeof node !== 'object' || node === null || depth > 256) return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
      return;
    }
    const record = node as Record<string, unknown>;
    namesOf(record, names);
    for (const key of Object.keys(record)) {
      const value = record[key];
      if (SCHEMA_MAPS.has(key) && isPlainObject(value)) {
        for (const name of Object.keys(value)) visit(value[name], depth + 1);
      } else if (!DATA_KEYWORDS.has(key)) visit(value, depth + 1);
    }
  };
  visit(schema, 0);
  return names;
}

/** The node a `$ref` within the document points to (`#`, `#/$defs/x`...), or undefined. */
function resolve(root: Record<string, unknown>, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Where one place of the arguments is described: the schema nodes that may apply to it. */
class Place {
  readonly nodes: Array<Record<string, unknown>> = [];
  private readonly seen = new Set<object>();

  constructor(
    private readonly root: Record<string, unknown>,
    /** How deep the place is in the arguments. */
    readonly depth = 0,
  ) {}

  /** Adds `node` and every node it applies in place (combinators, conditionals, `$ref`). */
  add(node: unknown): this {
    if (!isPlainObject(node) || this.seen.has(node) || this.seen.size > 1000) return this;
    this.seen.add(node);
    this.nodes.push(node);
    for (const key of ['allOf', 'anyOf', 'oneOf'])
      if (Array.isArray(node[key])) for (const sub of node[key] as unknown[]) this.add(sub);
    for (const key of ['if', 'then', 'else']) this.add(node[key]);
    if (typeof node['$ref'] === 'string') this.add(resolve(this.root, node['$ref']));
    return this;
  }

  names(): Set<string> {
    const names = new Set<string>();
    for (const node of this.nodes) namesOf(node, names);
    return names;
  }

  /** The place of the value under `key` of the object described here. */
  property(key: string): Place {
    const next = new Place(this.root, this.depth + 1);
    for (const node of this.nodes) {
      const properties = node['properties'];
      if (isPlainObject(properties) && Object.prototype.hasOwnProperty.call(properties, key))
        next.add(properties[key]);
      else next.add(node['additionalProperties']);
    }
    return next;
  }

  /** The place of item `index` of the array described here. */
  item(index: number): Place {
    const next = new Place(this.root, this.depth + 1);
    for (const node of this.nodes) {
      const prefix = node['prefixItems'];
      const items = node['items'];
      if (Array.isArray(prefix) && index < prefix.length) next.add(prefix[index]);
      else if (Array.isArray(items))
        next.add(index < items.length ? items[index] : node['additionalItems']);
      else next.add(items);
    }
    return next;
  }
}

/**
 * Where `args` carry a `constructor` or `prototype` key that `schema` does not declare for that
 * object, as `<JSON pointer>: <problem>`, or undefined.
 */
export function undeclaredKeyProblem(schema: unknown, args: unknown): string | undefined {
  if (!isPlainObject(schema)) return undefined;
  const walk = (value: unknown, place: Place, path: string): string | undefined => {
    if (typeof value !== 'object' || value === null || place.depth > 256) return undefined;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const found = walk(value[i], place.item(i), `${path}/${i}`);
        if (found) return found;
      }
      return undefined;
    }
    let names: Set<string> | undefined;
    for (const key of Object.keys(value)) {
      const at = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if ((key === 'constructor' || key === 'prototype') && !(names ??= place.names()).has(key))
        return `${at}: the key "${key}" is not accepted (it could reach object prototypes)`;
      const child = (value as Record<string, unknown>)[key];
      if (typeof child !== 'object' || child === null) continue;
      const found = walk(child, place.property(key), at);
      if (found) return found;
    }
    return undefined;
  };
  return walk(args, new Place(schema).add(schema), '');
}

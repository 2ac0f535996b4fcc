/**
 * @module One revision's MCP JSON Schema compiled with Ajv: each definition is compiled the first
 * time a value is checked against it, then kept. The caller hands in the Ajv classes, so that
 * this module neither loads Ajv nor decides how (toolwire/testing imports it when a wire check is
 * first asked for).
 */
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { definitionsOf, strictSchema } from './strictSchema.js';

/** The Ajv classes and plugin a {@link WireSchema} is compiled with. */
export interface AjvClasses {
  /** Ajv for draft-07, the dialect of the schemas before 2025-11-25. */
  readonly Ajv: new (options: object) => Ajv;
  /** Ajv for JSON Schema 2020-12 (2025-11-25 and later). */
  readonly Ajv2020: new (options: object) => Ajv;
  /** ajv-formats' plugin. */
  readonly addFormats: (ajv: Ajv) => unknown;
}

/** One thing wrong with a value, as Ajv reports it. */
export interface SchemaProblem {
  /** The definition the value was checked against, e.g. `CallToolResult`. */
  readonly definition: string;
  /** Where in the value: a JSON pointer (RFC 6901), `''` for the value itself. */
  readonly pointer: string;
  /** What is wrong, e.g. `must NOT have additional properties`. */
  readonly message: string;
  /** Ajv's details, e.g. `{ additionalProperty: 'title' }`. */
  readonly params: Readonly<Record<string, unknown>>;
}

/** How a {@link WireSchema} is built. */
export interface WireSchemaOptions {
  /** Close the schema's objects (see strictSchema.ts). Default true. */
  readonly strict?: boolean;
  readonly ajv: AjvClasses;
}

function problemOf(definition: string, error: ErrorObject): SchemaProblem {
  return {
    definition,
    pointer: error.instancePath,
    message: error.message ?? error.keyword,
    params: error.params as Record<string, unknown>,
  };
}

/** A schema's `properties.method.const`, or that of the first member of its `allOf` with one. */
function methodConst(schema: unknown): string | undefined {
  const shape = schema as
    { properties?: { method?: { const?: unknown } }; allOf?: unknown } | undefined;
  const method = shape?.properties?.method?.const;
  if (typeof method === 'string') return method;
  if (!Array.isArray(shape?.allOf)) return undefined;
  for (const member of shape.allOf) {
    const found = methodConst(member);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The definitions of one revision's schema, compiled on first use. */
export class WireSchema {
  private readonly ajv: Ajv;
  private readonly base: string;
  private readonly definitions: Record<string, unknown>;
  private readonly compiled = new Map<string, ValidateFunction>();

  /**
   * `document` is the revision's schema as published (it is copied, never changed); `name`
   * identifies it among the schemas of one Ajv instance.
   */
  constructor(name: string, document: Record<string, unknown>, options: WireSchemaOptions) {
    const strict = options.strict ?? true;
    const schema = structuredClone(document);
    if (strict) strictSchema(schema);
    const is2020 = String(schema['$schema']).includes('2020-12');
    const { Ajv, Ajv2020, addFormats } = options.ajv;
    this.ajv = is2020
      ? new Ajv2020({ strict: false, allErrors: true })
      : new Ajv({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.base = `urn:mcp:${name}:${strict}#/${is2020 ? '$defs' : 'definitions'}/`;
    schema['$id'] = this.base.slice(0, this.base.indexOf('#'));
    this.definitions = definitionsOf(schema);
    this.ajv.addSchema(schema);
  }

  /** True when the schema defines `definition`. */
  has(definition: string): boolean {
    return Object.hasOwn(this.definitions, definition);
  }

  /**
   * The method a request or notification definition fixes (its `method` property's `const`, or
   * that of a member of its `allOf`, as the tasks extension writes an envelope and a method), so
   * that method names come from the specification's schema rather than being spelled here.
   */
  methodOf(definition: string): string | undefined {
    return methodConst(this.definitions[definition]);
  }

  /** The problems of `value` as a `definition` (empty when it is valid). */
  check(definition: string, value: unknown): SchemaProblem[] {
    let validate = this.compiled.get(definition);
    if (!validate) {
      if (!this.has(definition)) throw new RangeError(`The schema has no definition ${definition}`);
      validate = this.ajv.getSchema(`${this.base}${definition}`) as ValidateFunction;
      this.compiled.set(definition, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => problemOf(definition, e));
  }
}

/**
 * @module A tool's input or output schema, given either as a Standard Schema (Zod 4, Valibot,
 * ArkType...) or as plain JSON Schema, turned once into what the server needs: the JSON Schema to
 * list and a validator to run.
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { isPlainObject } from '../../jsonrpc/guards.js';
import { compileJsonSchema, type SchemaIssue } from '../../protocol/jsonSchema.js';
import { withoutPrototypes } from '../../protocol/jsonValues.js';
import { declaredNames, undeclaredKeyProblem } from './declaredKeys.js';
import type { JsonSchemaObject } from '../../protocol/types.js';
import type { FromJsonSchema } from './inferJsonSchema.js';

/** A plain JSON Schema object for a tool's input (its root must describe an object). */
export type JsonSchemaInput = { readonly type: 'object'; readonly [keyword: string]: unknown };

/**
 * A plain JSON Schema object for a tool's output: its root may describe any value (2026-07-28;
 * 2025-era peers receive a non-object one wrapped as `{ result: … }`).
 */
export type OutputJsonSchemaInput = { readonly [keyword: string]: unknown };

/**
 * A schema toolwire accepts: a Standard Schema that can also describe itself as JSON Schema
 * (Zod 4.2+, ArkType 2.1+, Valibot through `toStandardJsonSchema`), or plain JSON Schema.
 */
export type SchemaInput = StandardSchemaV1 | JsonSchemaInput;

/** What an output schema may be given as. */
export type OutputSchemaInput = StandardSchemaV1 | OutputJsonSchemaInput;

/** The type of the value a schema validates to: the handler's arguments. */
export type InferOutput<S> = S extends StandardSchemaV1
  ? StandardSchemaV1.InferOutput<S>
  : S extends JsonSchemaInput
    ? FromJsonSchema<S>
    : Record<string, unknown>;

/** The type a schema accepts: what a handler returns as structured content. */
export type InferInput<S> = S extends StandardSchemaV1
  ? StandardSchemaV1.InferInput<S>
  : S extends OutputJsonSchemaInput
    ? FromJsonSchema<S>
    : Record<string, unknown>;

/** The outcome of validating a value against a tool schema. */
export type ToolSchemaCheck = { ok: true; value: unknown } | { ok: false; issues: SchemaIssue[] };

/** A compiled tool schema. */
export interface ToolSchema {
  /** The JSON Schema to list (root `type: "object"` for an input schema). */
  readonly jsonSchema: JsonSchemaObject;
  /** The root describes an object (2025-era peers receive any other output wrapped). */
  readonly objectRoot: boolean;
  /**
   * The JSON Schema for peers before 2025-11-25, which predate SEP-1613 (2020-12 as the default
   * dialect) and mostly read schemas as draft-07: never a `$schema`, and a Standard Schema
   * converted for draft-07 (tuples as `items` arrays, `definitions`...) when its library can.
   * Computed on first use: most servers never meet an older peer.
   */
  legacyJsonSchema(): JsonSchemaObject;
  /** Validates a value; the `value` it returns is what the handler (or the peer) receives. */
  validate(value: unknown): ToolSchemaCheck | Promise<ToolSchemaCheck>;
  /**
   * Of `constructor` and `prototype`, those an input schema declares as property names (in some
   * `properties` or `required`): accepted in arguments in the objects whose schema declares them
   * ({@link ToolSchema.undeclaredKeyProblem}), which are then validated and handed on as objects
   * without prototypes. Empty for every other schema.
   */
  readonly prototypeKeys: ReadonlySet<string>;
  /**
   * With `prototypeKeys`: where arguments carry a `constructor` or `prototype` key in an object
   * whose schema does not declare it, as `<JSON pointer>: <problem>`, or undefined.
   */
  undeclaredKeyProblem?(args: unknown): string | undefined;
}

/** No prototype key declared (shared). */
const NO_KEYS: ReadonlySet<string> = new Set();

/**
 * An input schema as arguments may meet it: one declaring `__proto__` is refused (arguments can
 * never carry that key: copied with `Object.assign`, it replaces the copy's prototype); one
 * declaring `constructor` or `prototype` takes them where it declares them, and validates and
 * hands on prototype-less copies of the arguments, so that such a key reads what the client sent
 * or nothing (not `Object`, which validators and handlers would otherwise read from any object).
 */
function forArguments(schema: ToolSchema, role: string): ToolSchema {
  const names = declaredNames(schema.jsonSchema);
  if (names.has('__proto__'))
    throw new TypeError(
      `The ${role} declares a property named "__proto__", which arguments can never carry (it would replace the prototype of an object they are copied into); rename it`,
    );
  const keys = ['constructor', 'prototype'].filter((name) => names.has(name));
  if (keys.length === 0) return schema;
  const validate = schema.validate.bind(schema);
  const handedOn = (check: ToolSchemaCheck, own: unknown): ToolSchemaCheck =>
    check.ok && check.value !== own ? { ok: true, value: withoutPrototypes(check.value) } : check;
  return {
    jsonSchema: schema.jsonSchema,
    objectRoot: true,
    legacyJsonSchema: () => schema.legacyJsonSchema(),
    prototypeKeys: new Set(keys),
    undeclaredKeyProblem: (args) => undeclaredKeyProblem(schema.jsonSchema, args),
    validate(value) {
      const own = withoutPrototypes(value);
      const check = validate(own);
      return check instanceof Promise ? check.then((c) => handedOn(c, own)) : handedOn(check, own);
    },
  };
}

function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    isPlainObject((value as { '~standard'?: unknown })['~standard'])
  );
}

function pathOf(issue: StandardSchemaV1.Issue): string {
  if (!issue.path || issue.path.length === 0) return '';
  return issue.path
    .map((segment) => {
      const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
      return '/' + String(key).replace(/~/g, '~0').replace(/\//g, '~1');
    })
    .join('');
}

function standardResult(result: StandardSchemaV1.Result<unknown>): ToolSchemaCheck {
  if (result.issues === undefined) return { ok: true, value: result.value };
  return {
    ok: false,
    issues: result.issues.map((i) => ({ path: pathOf(i), message: i.message })),
  };
}

/** The schema without a root `$schema` (the same object when it has none). */
function withoutDialect(schema: JsonSchemaObject): JsonSchemaObject {
  if (!('$schema' in schema)) return schema;
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/** The draft-07 form of a Standard Schema, or undefined when its library cannot produce one. */
function draft07Of(
  converter: StandardJSONSchemaV1.Converter,
  io: 'input' | 'output',
): JsonSchemaObject | undefined {
  try {
    const converted = converter[io]({ target: 'draft-07' });
    return io === 'output' || converted['type'] === 'object' ? converted : undefined;
  } catch {
    return undefined; // a library without that target: the 2020-12 form, minus $schema, is sent
  }
}

/**
 * Compiled Standard Schemas, per schema object and direction. Standard Schemas are immutable, and
 * converting one to JSON Schema is the costly part of registering a tool (with a thousand Zod
 * tools, about a fifth of start-up): a schema shared by several tools, or kept across
 * `update()`, is converted once.
 */
const compiledStandard = new WeakMap<object, { input?: ToolSchema; output?: ToolSchema }>();

function fromStandard(schema: StandardSchemaV1, io: 'input' | 'output', role: string): ToolSchema {
  let cached = compiledStandard.get(schema);
  const hit = cached?.[io];
  if (hit) return hit;
  const compiled = convertStandard(schema, io, role);
  if (!cached) compiledStandard.set(schema, (cached = {}));
  cached[io] = compiled;
  return compiled;
}

function convertStandard(
  schema: StandardSchemaV1,
  io: 'input' | 'output',
  role: string,
): ToolSchema {
  const converter = (schema as unknown as { '~standard': Partial<StandardJSONSchemaV1.Props> })[
    '~standard'
  ].jsonSchema;
  if (!converter) {
    throw new TypeError(
      `The ${role} is a Standard Schema (${schema['~standard'].vendor}) that cannot describe itself as JSON Schema. ` +
        'Use Zod 4.2+, ArkType 2.1+, Valibot with toStandardJsonSchema(), or pass a plain JSON Schema.',
    );
  }
  const jsonSchema = converter[io]({ target: 'draft-2020-12' });
  if (io === 'input' && jsonSchema['type'] !== 'object') {
    throw new TypeError(
      `The ${role} must describe an object (its JSON Schema root needs "type": "object")`,
    );
  }
  const validate = schema['~standard'].validate.bind(schema['~standard']);
  let legacy: JsonSchemaObject | undefined;
  return {
    jsonSchema,
    objectRoot: jsonSchema['type'] === 'object',
    prototypeKeys: NO_KEYS,
    legacyJsonSchema() {
      legacy ??= withoutDialect(draft07Of(converter, io) ?? jsonSchema);
      return legacy;
    },
    validate(value) {
      const result = validate(value);
      return result instanceof Promise ? result.then(standardResult) : standardResult(result);
    },
  };
}

function fromJsonSchema(
  schema: OutputJsonSchemaInput,
  role: string,
  io: 'input' | 'output',
): ToolSchema {
  if (io === 'input' && schema['type'] !== 'object') {
    throw new TypeError(`The ${role} must be a JSON Schema whose root has "type": "object"`);
  }
  let compiled;
  try {
    compiled = compileJsonSchema(schema);
  } catch (error) {
    throw new TypeError(`The ${role} is not usable: ${(error as Error).message}`, { cause: error });
  }
  // A private deep copy: later changes to the caller's object cannot change what is listed.
  const frozen = JSON.parse(JSON.stringify(schema)) as JsonSchemaObject;
  let legacy: JsonSchemaObject | undefined;
  return {
    jsonSchema: frozen,
    objectRoot: frozen.type === 'object',
    prototypeKeys: NO_KEYS,
    legacyJsonSchema() {
      legacy ??= withoutDialect(frozen);
      return legacy;
    },
    validate(value) {
      const check = compiled.validate(value);
      return check.ok ? { ok: true, value } : check;
    },
  };
}

/** Compiles an input or output schema. Throws a TypeError that names the problem. */
export function compileToolSchema(
  schema: OutputSchemaInput,
  io: 'input' | 'output',
  toolName: string,
): ToolSchema {
  const role = `${io} schema of tool "${toolName}"`;
  let compiled: ToolSchema;
  if (isStandardSchema(schema)) compiled = fromStandard(schema, io, role);
  else if (!isPlainObject(schema)) throw new TypeError(`The ${role} must be an object`);
  else compiled = fromJsonSchema(schema, role, io);
  return io === 'input' ? forArguments(compiled, role) : compiled;
}

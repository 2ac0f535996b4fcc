/**
 * @module JSON Schema validators for tool input and output schemas, compiled once per schema.
 * Dialects follow MCP 2025-11-25 (SEP-1613): no `$schema` means 2020-12; draft-07 and 2019-09 are
 * accepted when declared; anything else is refused with a clear error.
 */
import type { Ajv, AnySchema, ErrorObject, ValidateFunction } from 'ajv';
import { ajvModules } from './ajvLoader.js';

/** A JSON Schema dialect toolwire can validate. */
export type JsonSchemaDialect = '2020-12' | '2019-09' | 'draft-07';

/** One validation problem, with a JSON Pointer to where it is. */
export interface SchemaIssue {
  /** JSON Pointer into the validated value ("" for the root). */
  path: string;
  message: string;
}

/** The outcome of a validation. */
export type SchemaCheck = { ok: true } | { ok: false; issues: SchemaIssue[] };

/** A compiled schema. */
export interface CompiledJsonSchema {
  readonly dialect: JsonSchemaDialect;
  validate(value: unknown): SchemaCheck;
}

/** A schema that cannot be used: invalid for its dialect, or of an unsupported dialect. */
export class SchemaError extends Error {
  override readonly name = 'SchemaError';
}

const DIALECTS: Record<string, JsonSchemaDialect> = {
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
  'https://json-schema.org/draft/2019-09/schema': '2019-09',
  'http://json-schema.org/draft-07/schema': 'draft-07',
  'https://json-schema.org/draft-07/schema': 'draft-07',
};

/**
 * The dialect a schema declares, or `byDefault` (2020-12, the default since MCP 2025-11-25) when
 * it declares none. Throws for unknown ones.
 */
export function dialectOf(
  schema: object,
  byDefault: JsonSchemaDialect = '2020-12',
): JsonSchemaDialect {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared === undefined) return byDefault;
  if (typeof declared !== 'string') throw new SchemaError('"$schema" must be a string');
  const dialect = DIALECTS[declared.replace(/#$/, '')];
  if (!dialect) {
    throw new SchemaError(
      `Unsupported JSON Schema dialect "${declared}" (supported: 2020-12, 2019-09, draft-07)`,
    );
  }
  return dialect;
}

const instances = new Map<JsonSchemaDialect, Ajv>();

function ajvFor(dialect: JsonSchemaDialect): Ajv {
  let ajv = instances.get(dialect);
  if (ajv) return ajv;
  const options = {
    strict: false, // user schemas may carry annotations and vendor keywords
    allErrors: true, // report every problem at once, so a model can fix all of them
    addUsedSchema: false, // two tools may reuse one `$id` without clashing
    validateSchema: true,
    useDefaults: false, // never mutate the arguments that are dispatched
    coerceTypes: false,
  } as const;
  const modules = ajvModules();
  if (dialect === '2020-12') ajv = new modules.Ajv2020(options);
  else if (dialect === '2019-09') ajv = new modules.Ajv2019(options);
  else ajv = new modules.Ajv(options);
  modules.addFormats(ajv);
  instances.set(dialect, ajv);
  return ajv;
}

/** Turns Ajv errors into issues a person (or a model) can act on. */
export function toIssues(errors: readonly ErrorObject[] | null | undefined): SchemaIssue[] {
  if (!errors) return [];
  return errors.map((e) => {
    let message = e.message ?? 'is invalid';
    const params = e.params as Record<string, unknown>;
    if (e.keyword === 'additionalProperties' && typeof params['additionalProperty'] === 'string') {
      message = `must not have the property "${params['additionalProperty']}"`;
    } else if (e.keyword === 'required' && typeof params['missingProperty'] === 'string') {
      message = `must have the property "${params['missingProperty']}"`;
    } else if (e.keyword === 'enum' && Array.isArray(params['allowedValues'])) {
      message = `must be one of ${JSON.stringify(params['allowedValues'])}`;
    }
    return { path: e.instancePath, message };
  });
}

/** Renders issues as one line per problem, e.g. `/location: must be string`. */
export function describeIssues(issues: readonly SchemaIssue[]): string {
  return issues.map((i) => `${i.path === '' ? '(root)' : i.path}: ${i.message}`).join('; ');
}

/**
 * Validators already compiled, by dialect and schema text: servers often register many tools with
 * the same schema, and each Ajv compile costs memory (generated code) and time. Bounded, because a
 * server that keeps updating tools must not grow it forever; an evicted entry is only recompiled.
 */
const compiledByText = new Map<string, CompiledJsonSchema>();
const MAX_CACHED = 512;

/**
 * Compiles a JSON Schema once (identical schemas share one validator). A schema without `$schema`
 * is read as `byDefault`. Throws {@link SchemaError} when the schema is not valid for its dialect
 * or the dialect is not supported.
 */
export function compileJsonSchema(
  schema: object,
  byDefault: JsonSchemaDialect = '2020-12',
): CompiledJsonSchema {
  const dialect = dialectOf(schema, byDefault);
  const key = `${dialect}\u0000${JSON.stringify(schema)}`;
  const cached = compiledByText.get(key);
  if (cached) return cached;
  const compiled = compileUncached(schema, dialect);
  if (compiledByText.size >= MAX_CACHED)
    compiledByText.delete(compiledByText.keys().next().value as string);
  compiledByText.set(key, compiled);
  return compiled;
}

function compileUncached(schema: object, dialect: JsonSchemaDialect): CompiledJsonSchema {
  const ajv = ajvFor(dialect);
  let check: ValidateFunction;
  try {
    check = ajv.compile(schema as AnySchema);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SchemaError(`Invalid JSON Schema (${dialect}): ${reason}`, { cause: error });
  }
  return {
    dialect,
    validate(value: unknown): SchemaCheck {
      if (check(value)) return { ok: true };
      return { ok: false, issues: toIssues(check.errors) };
    },
  };
}

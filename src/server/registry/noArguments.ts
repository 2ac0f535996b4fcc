/**
 * @module The input schema of a tool registered without one: it takes no arguments (`{ "type":
 * "object", "additionalProperties": false }`). Checked by hand rather than by a compiled JSON
 * Schema validator: tools without arguments are common, and a server whose other tools use Zod
 * (or have none) then never loads or runs Ajv at start-up (about a fifth of a stdio server's
 * start). The issues are Ajv's, worded as for every other schema (registration.test.ts compares).
 */
import { isPlainObject } from '../../jsonrpc/guards.js';
import type { SchemaIssue } from '../../protocol/jsonSchema.js';
import type { ObjectJsonSchema } from '../../protocol/types.js';
import type { ToolSchema, ToolSchemaCheck } from './toolSchema.js';

const SCHEMA: ObjectJsonSchema = Object.freeze({
  type: 'object',
  additionalProperties: false,
});

const NO_KEYS: ReadonlySet<string> = new Set();

function validate(value: unknown): ToolSchemaCheck {
  if (!isPlainObject(value))
    return { ok: false, issues: [{ path: '', message: 'must be object' }] };
  // The common call, `{}`, allocates no list of issues.
  let issues: SchemaIssue[] | undefined;
  for (const key in value)
    if (Object.hasOwn(value, key))
      (issues ??= []).push({ path: '', message: `must not have the property "${key}"` });
  return issues ? { ok: false, issues } : { ok: true, value };
}

/** The schema of a tool that takes no arguments (shared by every such tool). */
export const NO_ARGUMENTS: ToolSchema = Object.freeze({
  jsonSchema: SCHEMA,
  objectRoot: true,
  legacyJsonSchema: () => SCHEMA,
  prototypeKeys: NO_KEYS,
  validate,
});

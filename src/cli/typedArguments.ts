/**
 * @module Turning `--arg key=value` strings into typed arguments using the tool's input schema:
 * a string property keeps the text as is, numbers and booleans are parsed, objects and arrays are
 * read as JSON. Properties the schema does not type are read as JSON when possible.
 */
import type { Tool } from '../index.js';
import { UsageError } from './args.js';

function typesOf(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const type = (schema as { type?: unknown }).type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return [];
}

function convert(key: string, raw: string, types: string[]): unknown {
  if (
    types.includes('string') ||
    (types.length === 0 && !/^[[{"\d-]|^(true|false|null)$/.test(raw))
  )
    return raw;
  if (types.includes('integer') || types.includes('number')) {
    const n = Number(raw);
    if (raw.trim() !== '' && Number.isFinite(n)) return n;
  }
  if (types.includes('boolean')) {
    if (raw === 'true') return true;
    if (raw === 'false') return false;
  }
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    if (types.length === 0) return raw;
    throw new UsageError(
      `call: --arg ${key}: expected ${types.join(' or ')}, got ${JSON.stringify(raw)}`,
    );
  }
}

/** Builds the arguments object: `--json` first, then each `--arg` on top. */
export function typedArguments(
  tool: Tool | undefined,
  json: Record<string, unknown> | undefined,
  pairs: ReadonlyArray<[string, string]>,
): Record<string, unknown> {
  const args: Record<string, unknown> = { ...json };
  const properties = tool?.inputSchema.properties ?? {};
  for (const [key, raw] of pairs) {
    const property = Object.prototype.hasOwnProperty.call(properties, key)
      ? properties[key]
      : undefined;
    Object.defineProperty(args, key, {
      value: convert(key, raw, typesOf(property)),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return args;
}

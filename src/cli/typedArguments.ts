/**
 * @module Turning `--arg key=value` strings into typed arguments using the tool's input schema:
 * a string property keeps the text as is, numbers and booleans are parsed, objects and arrays are
 * read as JSON. Properties the schema does not type are read as JSON when possible. A key the
 * schema does not accept (of `--arg` or of `--json`) is refused with the names it does, closest
 * first: the server would otherwise ignore a misspelt `--arg step=3` of `steps` in silence.
 */
import type { Tool } from '../index.js';
import { UsageError } from './args.js';
import { byCloseness, suggestion } from './closest.js';
import { CliFailure, EXIT } from './failure.js';
import { inputKeys } from './inputKeys.js';
import { terminalLine } from './terminalText.js';

/** How many of the tool's argument names a refusal lists. */
const NAMES_SHOWN = 10;

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

/** A key the input schema does not accept, and the option that gave it. */
interface UnknownKey {
  key: string;
  option: '--arg' | '--json';
}

/** The usage failure for keys the tool does not take: each with its likely meaning, then its names. */
function unknownArguments(tool: Tool, unknown: UnknownKey[], names: readonly string[]): CliFailure {
  const first = (unknown[0] as UnknownKey).key;
  const ordered = byCloseness(first, names);
  const each = unknown
    .map(({ key, option }) => {
      const near = suggestion(key, names);
      return `${JSON.stringify(key)} (${option}${near === undefined ? '' : `; did you mean ${JSON.stringify(near)}?`})`;
    })
    .join(', ');
  // Names come from the server: one line-safe piece each, so none can fake a line of its own.
  const shown = ordered.slice(0, NAMES_SHOWN).map(terminalLine).join(', ');
  const more = ordered.length > NAMES_SHOWN ? `, and ${ordered.length - NAMES_SHOWN} more` : '';
  const subject = `call: tool ${JSON.stringify(tool.name)} takes no argument${unknown.length > 1 ? 's' : ''} ${each}`;
  return new CliFailure({
    kind: 'unknown-argument',
    message:
      names.length === 0
        ? `${subject}: it takes no arguments`
        : `${subject}. Its arguments: ${shown}${more} (see toolwire list)`,
    exitCode: EXIT.usage,
    details: { tool: tool.name, unknown: unknown.map((u) => u.key), arguments: ordered },
  });
}

/**
 * Builds the arguments object: `--json` first, then each `--arg` on top, typed from the tool's
 * input schema. A key the schema does not accept is refused (`unknown-argument`, exit 2).
 */
export function typedArguments(
  tool: Tool | undefined,
  json: Record<string, unknown> | undefined,
  pairs: ReadonlyArray<[string, string]>,
): Record<string, unknown> {
  const args: Record<string, unknown> = { ...json };
  const keys = inputKeys(tool?.inputSchema ?? {});
  const unknown: UnknownKey[] = [];
  const note = (key: string, option: UnknownKey['option']): void => {
    if (tool && keys.schemaOf(key) === undefined && !unknown.some((u) => u.key === key))
      unknown.push({ key, option });
  };
  for (const [key] of pairs) note(key, '--arg');
  for (const key of Object.keys(json ?? {})) note(key, '--json');
  if (tool && unknown.length > 0) throw unknownArguments(tool, unknown, keys.names);
  for (const [key, raw] of pairs) {
    Object.defineProperty(args, key, {
      value: convert(key, raw, typesOf(keys.schemaOf(key))),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return args;
}

/**
 * @module A stable fingerprint of a tool definition: SHA-256 over canonical JSON (sorted keys) of
 * every field that changes what the tool does or how a user judges it. Used to notice a definition
 * that changed after the user approved it.
 */
import type { Tool } from '../../protocol/types.js';

/** JSON with object keys sorted at every level. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
}

/**
 * The fields of a definition that change what the tool does or how a user judges it (`_meta` and
 * icons are left out: they do not change behaviour).
 */
export function judgedFields(tool: Tool): Record<string, unknown> {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations,
    execution: tool.execution,
  };
}

/** The fingerprint of a tool definition (hex SHA-256 of the canonical JSON of its judged fields). */
export async function fingerprintTool(tool: Tool): Promise<string> {
  const material = canonicalJson(judgedFields(tool));
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(material));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** One judged field of a definition that differs between two of them. */
export interface DefinitionChange {
  /** The field, as a definition names it (`description`, `inputSchema`...). */
  readonly field: string;
  /** Its value before (undefined: it had none). */
  readonly before: unknown;
  /** Its value now (undefined: it has none). */
  readonly after: unknown;
}

/** The judged fields that differ from `before` to `after`, in {@link judgedFields} order. */
export function definitionChanges(before: Tool, after: Tool): DefinitionChange[] {
  const was = judgedFields(before);
  const is = judgedFields(after);
  return Object.keys(is)
    .filter((field) => canonicalJson(was[field]) !== canonicalJson(is[field]))
    .map((field) => ({ field, before: was[field], after: is[field] }));
}

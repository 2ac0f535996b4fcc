/**
 * @module Output checking: a handler's return value is checked block by block before anything
 * is sent, so a buggy tool yields a clear error result instead of a message the client cannot
 * parse. No schema library runs here.
 */
import { isPlainObject } from '../../jsonrpc/guards.js';
import { contentBlockProblem } from '../../protocol/contentGuards.js';
import { asSerialised } from '../../protocol/jsonValues.js';
import type { CallToolResult, ContentBlock } from '../../protocol/types.js';

/** What the handler returned, normalised, or why it cannot be sent. */
export type CheckedResult = { ok: true; result: CallToolResult } | { ok: false; problem: string };

/** Normalises and checks a handler's return value (a string is shorthand for one text block). */
export function checkToolResult(value: unknown): CheckedResult {
  if (typeof value === 'string')
    return { ok: true, result: { content: [{ type: 'text', text: value }] } };
  if (!isPlainObject(value))
    return { ok: false, problem: 'the handler must return an object or a string' };
  const content = value['content'] ?? [];
  if (!Array.isArray(content)) return { ok: false, problem: '"content" must be an array' };
  for (let i = 0; i < content.length; i++) {
    const problem = contentBlockProblem(content[i]);
    if (problem) return { ok: false, problem: `content[${i}] ${problem}` };
  }
  const result: CallToolResult = { content: content as ContentBlock[] };
  const structured = value['structuredContent'];
  if (structured !== undefined) {
    // Checked (and later validated) as the client will read it: NaN or Infinity become null, a
    // Date its string, so the output schema sees what goes on the wire.
    const serialised = asSerialised(structured);
    if (!serialised.ok) return { ok: false, problem: `"structuredContent": ${serialised.problem}` };
    // Any JSON value (2026-07-28); a 2025-era peer receives a non-object one as { result: … }.
    result.structuredContent = serialised.value;
  }
  const isError = value['isError'];
  if (isError !== undefined) {
    if (typeof isError !== 'boolean') return { ok: false, problem: '"isError" must be a boolean' };
    result.isError = isError;
  }
  const meta = value['_meta'];
  if (meta !== undefined) {
    if (!isPlainObject(meta)) return { ok: false, problem: '"_meta" must be an object' };
    result._meta = meta;
  }
  return { ok: true, result };
}

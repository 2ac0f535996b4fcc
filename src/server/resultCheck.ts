/**
 * @module Output sanitising: a handler's return value is checked block by block before anything
 * is sent, so a buggy tool yields a clear error result instead of a message the client cannot
 * parse. No schema library runs here.
 */
import { isPlainObject } from '../jsonrpc/guards.js';
import type { CallToolResult, ContentBlock } from '../protocol/types.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function annotationsProblem(a: unknown): string | undefined {
  if (a === undefined) return undefined;
  if (!isPlainObject(a)) return 'annotations must be an object';
  const audience = a['audience'];
  if (
    audience !== undefined &&
    !(Array.isArray(audience) && audience.every((r) => r === 'user' || r === 'assistant'))
  ) {
    return 'annotations.audience must be an array of "user" and "assistant"';
  }
  const priority = a['priority'];
  if (priority !== undefined && !(typeof priority === 'number' && priority >= 0 && priority <= 1)) {
    return 'annotations.priority must be a number from 0 to 1';
  }
  const lastModified = a['lastModified'];
  if (
    lastModified !== undefined &&
    !(typeof lastModified === 'string' && !Number.isNaN(Date.parse(lastModified)))
  ) {
    return 'annotations.lastModified must be an ISO 8601 date';
  }
  return undefined;
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function blockProblem(block: unknown): string | undefined {
  if (!isPlainObject(block)) return 'is not an object';
  const problem = annotationsProblem(block['annotations']);
  if (problem) return problem;
  if (block['_meta'] !== undefined && !isPlainObject(block['_meta']))
    return '_meta must be an object';
  switch (block['type']) {
    case 'text':
      return isString(block['text']) ? undefined : 'a text block needs a string "text"';
    case 'image':
    case 'audio':
      if (!isString(block['mimeType']))
        return `an ${block['type']} block needs a string "mimeType"`;
      if (!isString(block['data']) || !BASE64.test(block['data'])) {
        return `an ${block['type']} block needs base64 "data"`;
      }
      return undefined;
    case 'resource_link':
      if (!isString(block['uri']) || !isString(block['name']))
        return 'a resource_link needs string "uri" and "name"';
      if (block['size'] !== undefined && typeof block['size'] !== 'number')
        return 'resource_link "size" must be a number';
      return undefined;
    case 'resource': {
      const r = block['resource'];
      if (!isPlainObject(r) || !isString(r['uri']))
        return 'an embedded resource needs a "resource" with a string "uri"';
      const hasText = isString(r['text']);
      const hasBlob = isString(r['blob']) && BASE64.test(r['blob']);
      if (hasText === hasBlob)
        return 'an embedded resource needs either string "text" or base64 "blob"';
      return undefined;
    }
    default:
      return `has an unknown content type ${JSON.stringify(block['type'])}`;
  }
}

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
    const problem = blockProblem(content[i]);
    if (problem) return { ok: false, problem: `content[${i}] ${problem}` };
  }
  const result: CallToolResult = { content: content as ContentBlock[] };
  const structured = value['structuredContent'];
  if (structured !== undefined) {
    if (!isPlainObject(structured))
      return { ok: false, problem: '"structuredContent" must be an object' };
    result.structuredContent = structured;
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

/**
 * @module Hand-written guards for content blocks, shared by the server (what a handler returned,
 * before anything is sent) and the client (what a server sent, against the negotiated revision).
 * No schema library runs here: results are on the hot path.
 */
import { isPlainObject } from '../jsonrpc/guards.js';
import type { RevisionFeatures } from './versions.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function annotationsProblem(a: unknown, datesChecked: boolean): string | undefined {
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
  if (lastModified !== undefined) {
    if (typeof lastModified !== 'string') return 'annotations.lastModified must be a string';
    if (datesChecked && Number.isNaN(Date.parse(lastModified)))
      return 'annotations.lastModified must be an ISO 8601 date';
  }
  return undefined;
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function mediaProblem(block: Record<string, unknown>, type: string): string | undefined {
  if (!isString(block['mimeType'])) return `an ${type} block needs a string "mimeType"`;
  if (!isString(block['data']) || !BASE64.test(block['data']))
    return `an ${type} block needs base64 "data"`;
  return undefined;
}

/**
 * Why a content block is malformed, or undefined. Without `features` (a server checking its own
 * handler's output), any type toolwire knows is accepted, since the server converts blocks for
 * older peers, and dates must parse. With `features` (a client checking what a peer sent), the
 * block must be valid for that revision's schema: only the types it defines (audio from
 * 2025-03-26, resource_link from 2025-06-18), and no check the schema does not make.
 */
export function contentBlockProblem(
  block: unknown,
  features?: RevisionFeatures,
): string | undefined {
  if (!isPlainObject(block)) return 'is not an object';
  const problem = annotationsProblem(block['annotations'], features === undefined);
  if (problem) return problem;
  if (block['_meta'] !== undefined && !isPlainObject(block['_meta']))
    return '_meta must be an object';
  switch (block['type']) {
    case 'text':
      return isString(block['text']) ? undefined : 'a text block needs a string "text"';
    case 'audio':
      if (features && !features.audioContent)
        return 'is an audio block, which this protocol revision does not define';
      return mediaProblem(block, 'audio');
    case 'image':
      return mediaProblem(block, 'image');
    case 'resource_link':
      if (features && !features.resourceLinks)
        return 'is a resource_link, which this protocol revision does not define';
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
      // A peer's resource may carry both (the schema's anyOf allows it); ours never does.
      if (features ? !(hasText || hasBlob) : hasText === hasBlob)
        return 'an embedded resource needs either string "text" or base64 "blob"';
      return undefined;
    }
    default:
      return `has an unknown content type ${JSON.stringify(block['type'])}`;
  }
}

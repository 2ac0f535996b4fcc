/**
 * @module `resultType`, which every result of revision 2026-07-28 carries: `complete`, or
 * `input_required` for a multi-round-trip request. Absent (an older server) means `complete`; an
 * unknown one is invalid.
 */
import { LocalError } from '../../../jsonrpc/errors.js';
import type { JsonObject } from '../../../jsonrpc/types.js';

/** The kinds of result a tools client handles. */
export type ResultKind = 'complete' | 'input_required';

/** The `resultType` of a result: absent is `complete`; anything unknown is refused. */
export function checkResultType(raw: JsonObject, method: string): ResultKind {
  const type = raw['resultType'];
  if (type === undefined || type === 'complete') return 'complete';
  if (type === 'input_required') return 'input_required';
  throw new LocalError(
    'invalid-response',
    `The ${method} result has a resultType this client does not know: ${JSON.stringify(type).slice(0, 100)}`,
  );
}

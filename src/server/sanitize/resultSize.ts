/**
 * @module How big a tool result is on the wire, cheaply. Most results are small, so a walk adding
 * up string lengths (an underestimate of the JSON bytes by at most 6x: a control character is
 * escaped as `\u0000`, a BMP character is at most 3 UTF-8 bytes), plus the JSON punctuation,
 * settles them without serialising; only a result whose estimate comes near the limit is
 * serialised and measured exactly. Runtime-neutral: `TextEncoder`, no Buffer.
 */

const encoder = new TextEncoder();

/** A generous per-value allowance for quotes, colons, commas and brackets. */
const PUNCTUATION = 4;

/** Adds up the characters of a JSON value's strings and keys, stopping once past `stop`. */
function roughSize(value: unknown, stop: number, depth = 0): number {
  if (typeof value === 'string') return value.length + PUNCTUATION;
  if (typeof value !== 'object' || value === null || depth > 64) return 24; // numbers, literals
  let total = PUNCTUATION;
  if (Array.isArray(value)) {
    for (const item of value) {
      total += roughSize(item, stop - total, depth + 1);
      if (total > stop) return total;
    }
    return total;
  }
  for (const key in value) {
    total +=
      key.length + roughSize((value as Record<string, unknown>)[key], stop - total, depth + 1);
    if (total > stop) return total;
  }
  return total;
}

/**
 * The UTF-8 size of `value`'s JSON when it exceeds `limit` bytes, else undefined. Exact whenever
 * it answers a size.
 */
export function oversizeOf(value: unknown, limit: number): number | undefined {
  // A string of n characters is at most 6n bytes of JSON (`\u001f`; UTF-8 needs at most 3).
  if (roughSize(value, limit / 6) <= limit / 6) return undefined;
  const bytes = encoder.encode(JSON.stringify(value)).length;
  return bytes > limit ? bytes : undefined;
}

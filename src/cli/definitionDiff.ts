/**
 * @module What changed in a tool definition since the user allowed it (a "rug pull" made
 * visible): both definitions as indented JSON with sorted keys, compared line by line (longest
 * common subsequence), shown as `-` and `+` lines with a line of context around each change.
 */
import type { Tool } from '../index.js';

/** JSON with keys sorted at every level, indented. */
function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v === null || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(v).sort()) out[key] = sort((v as Record<string, unknown>)[key]);
    return out;
  };
  return JSON.stringify(sort(value), null, 2);
}

/** Lines longer than the diff can compare are compared whole; past this many it stops. */
const MAX_LINES = 2000;

/** The diff of two tool definitions; empty when they are the same. */
export function definitionDiff(before: Tool, after: Tool): string[] {
  const a = sortedJson(before).split('\n').slice(0, MAX_LINES);
  const b = sortedJson(after).split('\n').slice(0, MAX_LINES);
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lengths: number[][] = Array.from({ length: a.length + 1 }, () =>
    new Array<number>(b.length + 1).fill(0),
  );
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lengths[i]![j] =
        a[i] === b[j]
          ? lengths[i + 1]![j + 1]! + 1
          : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
  const ops: Array<[' ' | '-' | '+', string]> = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push([' ', a[i]!]);
      i++;
      j++;
    } else if (i < a.length && (j >= b.length || lengths[i + 1]![j]! >= lengths[i]![j + 1]!)) {
      // A removal first, as diffs read: what was, then what is.
      ops.push(['-', a[i]!]);
      i++;
    } else {
      ops.push(['+', b[j]!]);
      j++;
    }
  }
  const shown = new Set<number>();
  ops.forEach(([op], k) => {
    if (op !== ' ') for (let c = k - 1; c <= k + 1; c++) if (c >= 0 && c < ops.length) shown.add(c);
  });
  const lines: string[] = [];
  let last = -1;
  for (const k of [...shown].sort((x, y) => x - y)) {
    if (last >= 0 && k > last + 1) lines.push('  ...');
    const [op, text] = ops[k]!;
    lines.push(`${op} ${text}`);
    last = k;
  }
  return lines;
}

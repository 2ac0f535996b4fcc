/**
 * @module Noticing a tool that reappears under another name: a server can withdraw a tool the
 * person allowed and offer the same (or nearly the same) definition under a new name. The new
 * name is asked about as new, and the person is told what it looks like: "renamed from …".
 */
import type { Tool } from '../../protocol/types.js';
import { canonicalJson, judgedFields } from './fingerprint.js';

/** How much a definition resembles another: the same but for its name, or similar. */
export type Resemblance = 'same' | 'similar';

/** A tool that is gone, and how much a new one resembles it. */
export interface Renamed {
  /** The name it had. */
  readonly from: string;
  /** Its definition then. */
  readonly definition: Tool;
  readonly resemblance: Resemblance;
}

/** The words of a text, for comparing descriptions. */
function words(text: unknown): Set<string> {
  if (typeof text !== 'string') return new Set();
  return new Set(
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [],
  );
}

/** The share of words two texts have in common (Jaccard), 1 for two empty texts. */
function wordOverlap(a: unknown, b: unknown): number {
  const x = words(a);
  const y = words(b);
  if (x.size === 0 && y.size === 0) return 1;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return shared / (x.size + y.size - shared);
}

/** The judged fields of a definition but its name, as canonical JSON. */
const withoutName = (tool: Tool): string =>
  canonicalJson({ ...judgedFields(tool), name: undefined });

/**
 * How much `tool` resembles `other`: `same` when nothing but the name differs; `similar` when the
 * input schemas are the same and the descriptions share most words, or the descriptions are
 * nearly the same; else nothing.
 */
export function resemblance(tool: Tool, other: Tool): Resemblance | undefined {
  if (withoutName(tool) === withoutName(other)) return 'same';
  const overlap = wordOverlap(tool.description, other.description);
  const sameInput = canonicalJson(tool.inputSchema) === canonicalJson(other.inputSchema);
  if ((sameInput && overlap >= 0.5) || overlap >= 0.8) return 'similar';
  return undefined;
}

/** The gone tool `tool` most resembles, if any (`same` before `similar`). */
export function renamedFrom(tool: Tool, gone: Iterable<Tool>): Renamed | undefined {
  let best: Renamed | undefined;
  for (const before of gone) {
    if (before.name === tool.name) continue;
    const how = resemblance(tool, before);
    if (how === 'same') return { from: before.name, definition: before, resemblance: how };
    if (how === 'similar' && !best)
      best = { from: before.name, definition: before, resemblance: how };
  }
  return best;
}

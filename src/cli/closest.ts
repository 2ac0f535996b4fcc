/**
 * @module Ordering names by how close they are to a mistyped one (optimal string alignment
 * distance: insertions, deletions, substitutions and swaps of neighbours each cost 1), for "did
 * you mean" suggestions of tools and options.
 */

/** The edit distance between `a` and `b`, counting a swap of two neighbours as one edit. */
export function editDistance(a: string, b: string): number {
  // Three rows of the dynamic-programming table are enough: the swap looks two rows back.
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, (before[j - 2] as number) + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * `names` ordered closest to `wanted` first (case-insensitively; a name containing the wanted
 * one, or contained in it, counts as close), ties in alphabetical order.
 */
export function byCloseness(wanted: string, names: readonly string[]): string[] {
  const w = wanted.toLowerCase();
  const score = (name: string): number => {
    const n = name.toLowerCase();
    const distance = editDistance(w, n);
    return w.length > 0 && (n.includes(w) || w.includes(n)) ? Math.min(distance, 1.5) : distance;
  };
  return names
    .map((name) => ({ name, score: score(name) }))
    .sort((x, y) => x.score - y.score || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))
    .map((x) => x.name);
}

/** The closest name when it is plausibly what was meant (at most a third of it wrong), if any. */
export function suggestion(wanted: string, names: readonly string[]): string | undefined {
  const best = byCloseness(wanted, names)[0];
  if (best === undefined) return undefined;
  return editDistance(wanted.toLowerCase(), best.toLowerCase()) <= Math.max(1, wanted.length / 3)
    ? best
    : undefined;
}

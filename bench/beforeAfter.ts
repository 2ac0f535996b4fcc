/**
 * @module How the before/after comparison judges a figure: the median and [min-max] of each side
 * over its rounds, their ratio, and whether the second side (after) is worse than the first
 * (before) by more than the run-to-run spread, the larger of the two sides' min-max ranges: a
 * difference inside it is the machine's noise, not the change.
 */
import { formatNumber, formatSpread, markdownTable, type Figure } from './report.js';
import { spread, type Spread } from './stats.js';

/** What a figure did from before to after. */
export type Change = 'WORSE' | 'better' | 'within spread';

/** One figure of one server, both sides. */
export interface Comparison {
  before: Spread;
  after: Spread;
  /** after / before, medians. */
  ratio: number;
  /** The larger min-max range of the two sides. */
  noise: number;
  change: Change;
}

/** Compares the rounds of one figure (`before` and `after` hold one value per round). */
export function compareFigure(
  before: readonly number[],
  after: readonly number[],
  better: Figure['better'],
): Comparison {
  const b = spread(before);
  const a = spread(after);
  const noise = Math.max(b.max - b.min, a.max - a.min);
  // Positive when after is worse: higher for a time, CPU or memory, lower for a rate.
  const worseBy = better === 'lower' ? a.median - b.median : b.median - a.median;
  const change: Change = worseBy > noise ? 'WORSE' : -worseBy > noise ? 'better' : 'within spread';
  return { before: b, after: a, ratio: a.median / b.median, noise, change };
}

/** The table of one server: a row per figure, both sides, the ratio, the noise, the verdict. */
export function comparisonTable(
  labels: readonly [string, string],
  figures: readonly Figure[],
  comparisons: Readonly<Record<string, Comparison>>,
): string {
  const rows = figures.flatMap((f) => {
    const c = comparisons[f.key];
    if (!c) return [];
    return [
      [
        f.label,
        formatSpread(c.before),
        formatSpread(c.after),
        Number.isFinite(c.ratio) ? c.ratio.toFixed(2) : '-',
        formatNumber(c.noise),
        c.change,
      ],
    ];
  });
  return markdownTable(['figure', labels[0], labels[1], 'after/before', 'spread', 'change'], rows);
}

/** @module Small statistics helpers for the benchmark. */

/** The q-quantile (0..1) of `values` (sorted copy, nearest rank). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

/**
 * The median: the middle value, or the mean of the two middle ones for an even count (with the
 * nearest rank, the median of two rounds would always be the lower one).
 */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length % 2 === 1) return sorted[mid] ?? NaN;
  return sorted.length === 0 ? NaN : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

/** A figure over several rounds: its median and its range. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** The median, minimum and maximum of `values` (NaN for none). */
export function spread(values: readonly number[]): Spread {
  return {
    median: median(values),
    min: values.length > 0 ? Math.min(...values) : NaN,
    max: values.length > 0 ? Math.max(...values) : NaN,
  };
}

/** Milliseconds since `start` (from process.hrtime.bigint()). */
export function msSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

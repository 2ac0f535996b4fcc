/** @module Small statistics helpers for the benchmark. */

/** The q-quantile (0..1) of `values` (sorted copy, nearest rank). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

/** The median. */
export const median = (values: readonly number[]): number => quantile(values, 0.5);

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

/**
 * @module How a benchmark reports: figures gathered over interleaved rounds become a median with
 * its [min-max] range per server, printed as a Markdown table (readable as is in a terminal, and
 * pasted as is into the README) with the ratios of toolwire to the ceiling and to the official SDK;
 * the whole result is also written to .bench-out/<bench>.json for the targets table.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { spread, type Spread } from './stats.js';

/** One figure a benchmark measures. */
export interface Figure {
  key: string;
  label: string;
  /** Which way is better: `higher` for throughput, `lower` for times, CPU and memory. */
  better: 'higher' | 'lower';
}

/** A ratio column: `of` divided by `to`, medians of the same run. */
export interface Ratio {
  header: string;
  of: string;
  to: string;
}

/** The figures of one server in one round, by figure key. */
export type RoundFigures = Record<string, number>;

/** Everything a benchmark run measured, as written to .bench-out/<bench>.json. */
export interface BenchResult {
  bench: string;
  node: string;
  quick: boolean;
  rounds: number;
  loadStart: number[];
  loadEnd: number[];
  /** Server name -> the column header it is printed under. */
  servers: Record<string, string>;
  figures: Figure[];
  perRound: Record<string, RoundFigures[]>;
  /** Server name -> figure key -> median and range over the rounds. */
  summary: Record<string, Record<string, Spread>>;
}

/** Where results are written: .bench-out/ at the root, or BENCH_OUT (the smoke test's own folder). */
const OUT = `${process.env['BENCH_OUT'] ?? fileURLToPath(new URL('../../.bench-out', import.meta.url))}/`;

/** A number in 3 significant digits (`k` for thousands), `-` when not measured. */
export function formatNumber(v: number | undefined): string {
  if (v === undefined || !Number.isFinite(v)) return '-';
  if (v >= 1e6) return `${(v / 1e6).toPrecision(3)}M`;
  if (v >= 1000) return `${(v / 1000).toPrecision(3)}k`;
  return v.toPrecision(3);
}

/** `median [min-max]`. */
export function formatSpread(s: Spread | undefined): string {
  if (!s || !Number.isFinite(s.median)) return '-';
  return `${formatNumber(s.median)} [${formatNumber(s.min)}-${formatNumber(s.max)}]`;
}

/** A Markdown table, columns padded; the first column left-aligned, the others right-aligned. */
export function markdownTable(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `| ${widths.map((w, i) => (i === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** The load average as `1m 5m 15m`. */
export function formatLoad(load: readonly number[]): string {
  return load.map((l) => l.toFixed(2)).join(' ');
}

/** The median of each figure of each server over its rounds. */
export function summarize(
  perRound: Record<string, RoundFigures[]>,
  figures: readonly Figure[],
): Record<string, Record<string, Spread>> {
  return Object.fromEntries(
    Object.entries(perRound).map(([name, rounds]) => [
      name,
      Object.fromEntries(
        figures.map((f) => [
          f.key,
          spread(rounds.map((r) => r[f.key] ?? NaN).filter((v) => Number.isFinite(v))),
        ]),
      ),
    ]),
  );
}

/** The ratio of two servers' medians for a figure (NaN when either is missing). */
export function ratioOf(result: BenchResult, key: string, of: string, to: string): number {
  return (result.summary[of]?.[key]?.median ?? NaN) / (result.summary[to]?.[key]?.median ?? NaN);
}

/** The table of a benchmark: one row per figure, one column per server, then the ratios. */
export function resultTable(result: BenchResult, ratios: readonly Ratio[]): string {
  const names = Object.keys(result.servers);
  const header = [
    'figure',
    ...names.map((n) => result.servers[n] ?? n),
    ...ratios.map((r) => r.header),
  ];
  const rows = result.figures.map((f) => [
    f.label,
    ...names.map((n) => formatSpread(result.summary[n]?.[f.key])),
    ...ratios.map((r) => {
      const v = ratioOf(result, f.key, r.of, r.to);
      return Number.isFinite(v) ? v.toFixed(2) : '-';
    }),
  ]);
  return markdownTable(header, rows);
}

/** What a benchmark measures, and how it prints it. */
export interface BenchSpec {
  bench: string;
  quick: boolean;
  rounds: number;
  /** Server name -> its column header (`label`), in the order they run each round. */
  servers: Record<string, { label: string }>;
  figures: Figure[];
  ratios: Ratio[];
  /** A line under the title: what was counted, how. */
  note: string;
}

/**
 * Runs `measure` for every server, round after round (the servers interleaved, so a noisy moment
 * of a shared machine hits one round of each rather than all rounds of one), then prints the table
 * and writes .bench-out/<bench>.json.
 */
export async function runBench(
  spec: BenchSpec,
  measure: (server: string) => Promise<RoundFigures>,
): Promise<BenchResult> {
  const loadStart = loadavg();
  const names = Object.keys(spec.servers);
  const perRound: Record<string, RoundFigures[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < spec.rounds; r++) {
    for (const name of names) {
      process.stderr.write(`[bench ${spec.bench}] round ${r + 1}/${spec.rounds}: ${name}\n`);
      perRound[name]?.push(await measure(name));
    }
  }
  const result: BenchResult = {
    bench: spec.bench,
    node: process.version,
    quick: spec.quick,
    rounds: spec.rounds,
    loadStart,
    loadEnd: loadavg(),
    servers: Object.fromEntries(names.map((n) => [n, spec.servers[n]?.label ?? n])),
    figures: spec.figures,
    perRound,
    summary: summarize(perRound, spec.figures),
  };
  console.log(
    `\n${spec.bench} benchmark: ${spec.rounds} interleaved round(s), median [min-max]; ` +
      `node ${process.version}; load average ${formatLoad(loadStart)} at start, ` +
      `${formatLoad(result.loadEnd)} at end\n${spec.note}\n`,
  );
  console.log(resultTable(result, spec.ratios));
  mkdirSync(OUT, { recursive: true });
  writeFileSync(`${OUT}${spec.bench}.json`, JSON.stringify(result, null, 2));
  return result;
}

/** The result a benchmark wrote last, if any. */
export function readResult(bench: string): BenchResult | undefined {
  try {
    return JSON.parse(readFileSync(`${OUT}${bench}.json`, 'utf8')) as BenchResult;
  } catch {
    return undefined;
  }
}

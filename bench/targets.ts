/**
 * @module The targets of issues 10 and 21, checked against one run's results: each is a ratio of
 * the default toolwire server (async handlers, Zod schemas) to a ceiling measured in the same run
 * (the bare one, or for cold start the one that also imports Zod and converts the same schemas),
 * plus "every figure better than the official SDK's" (over HTTP, than the better of its two
 * response modes for that figure), and issue 22's 2026 row: a stateless call's CPU against a 2025
 * session call's, and its calls/s at 16 clients at least 3x the official SDK v2's 2026 handler's.
 */
import { formatNumber, ratioOf, type BenchResult } from './report.js';

/** A target on one figure: toolwire / a ceiling compared with a bound. */
interface CeilingTarget {
  bench: 'stdio' | 'http';
  key: string;
  label: string;
  op: '>=' | '<=';
  bound: number;
  /**
   * The ceiling server it is judged against: `ceiling` (the bare process) by default;
   * `ceiling-zod` where Zod alone costs a multiple of the bare ceiling (cold start), so the bound
   * is on toolwire's own share; `toolwire` (its 2025 sessions) or `sdk-v2` (the official SDK v2's
   * 2026 handler) for the 2026 row.
   */
  reference?: 'ceiling' | 'ceiling-zod' | 'toolwire' | 'sdk-v2';
  /** The server judged: the default toolwire server unless named (the 2026 clients' row). */
  of?: string;
}

/** How each reference is named in the goal and reference columns. */
const CEILING_LABELS = {
  ceiling: 'ceiling',
  'ceiling-zod': 'ceiling+Zod',
  toolwire: 'toolwire 2025 session',
  'sdk-v2': 'SDK v2 2026',
} as const;

const CEILING_TARGETS: readonly CeilingTarget[] = [
  { bench: 'stdio', key: 'rps64', label: 'stdio calls/s at 64 in flight', op: '>=', bound: 0.8 },
  {
    bench: 'stdio',
    key: 'cpuUs64',
    label: 'stdio server CPU µs per call (64 in flight)',
    op: '<=',
    bound: 1.6,
  },
  { bench: 'stdio', key: 'p99_64', label: 'stdio p99 at 64 in flight', op: '<=', bound: 2 },
  {
    bench: 'stdio',
    key: 'cpuUsFlood',
    label: 'stdio server CPU µs per call (flood)',
    op: '<=',
    bound: 2,
  },
  { bench: 'stdio', key: 'list1000', label: 'tools/list of 1000 tools', op: '<=', bound: 1.5 },
  {
    bench: 'stdio',
    key: 'coldStart',
    label: 'cold start to first tools/list',
    op: '<=',
    bound: 1.2,
    reference: 'ceiling-zod',
  },
  { bench: 'stdio', key: 'rss', label: 'RSS after the run', op: '<=', bound: 1.3 },
  {
    bench: 'http',
    key: 'cpuUs16',
    label: 'HTTP server CPU µs per call at 16 clients',
    op: '<=',
    bound: 1.5,
  },
  {
    bench: 'http',
    key: 'cpuUs16',
    label: 'HTTP 2026 stateless call: server CPU µs, 16 clients',
    op: '<=',
    bound: 1.2,
    of: 'toolwire-2026',
    reference: 'toolwire',
  },
  {
    bench: 'http',
    key: 'rps16',
    label: 'HTTP 2026 stateless calls/s at 16 clients vs SDK v2',
    op: '>=',
    bound: 3,
    of: 'toolwire-2026',
    reference: 'sdk-v2',
  },
];

/** The official SDK's servers each benchmark compares with. */
const SDK_SERVERS: Record<string, readonly string[]> = {
  stdio: ['sdk'],
  http: ['sdk', 'sdk-json'],
};

/** One checked target, as printed. */
export interface Verdict {
  target: string;
  goal: string;
  toolwire: string;
  reference: string;
  ratio: string;
  /**
   * For a ceiling target: toolwire / the ceiling plus what Zod costs any server (`ceiling-zod`,
   * when the benchmark ran it), the part of the figure that is toolwire's own; else "-".
   */
  ownRatio: string;
  met: boolean | undefined;
}

const median = (r: BenchResult, server: string, key: string) =>
  r.summary[server]?.[key]?.median ?? NaN;

function verdict(ok: boolean, ratio: number): boolean | undefined {
  return Number.isFinite(ratio) ? ok : undefined;
}

/** Every target whose benchmark is in `results`, checked. */
export function checkTargets(results: Partial<Record<string, BenchResult>>): Verdict[] {
  const verdicts: Verdict[] = [];
  for (const t of CEILING_TARGETS) {
    const r = results[t.bench];
    if (!r) continue;
    const reference = t.reference ?? 'ceiling';
    const of = t.of ?? 'toolwire';
    if (r.servers[of] === undefined) continue;
    const ratio = ratioOf(r, t.key, of, reference);
    const own = ratioOf(r, t.key, of, 'ceiling-zod');
    verdicts.push({
      target: t.label,
      goal: `${t.op} ${t.bound}x ${CEILING_LABELS[reference]}`,
      toolwire: formatNumber(median(r, of, t.key)),
      reference: `${formatNumber(median(r, reference, t.key))} (${CEILING_LABELS[reference]})`,
      ratio: ratio.toFixed(2),
      ownRatio: Number.isFinite(own) ? own.toFixed(2) : '-',
      met: verdict(t.op === '>=' ? ratio >= t.bound : ratio <= t.bound, ratio),
    });
  }
  for (const [bench, sdks] of Object.entries(SDK_SERVERS)) {
    const r = results[bench];
    if (!r) continue;
    for (const f of r.figures) {
      // Against the SDK's better mode for this figure.
      const sign = f.better === 'higher' ? 1 : -1;
      const sdk = sdks.reduce((best, s) =>
        sign * median(r, s, f.key) > sign * median(r, best, f.key) ? s : best,
      );
      const ratio = ratioOf(r, f.key, 'toolwire', sdk);
      verdicts.push({
        target: `vs SDK: ${bench} ${f.label}`,
        goal: `${f.better === 'higher' ? '>' : '<'} 1x SDK`,
        toolwire: formatNumber(median(r, 'toolwire', f.key)),
        reference: `${formatNumber(median(r, sdk, f.key))} (${r.servers[sdk] ?? sdk})`,
        ratio: ratio.toFixed(2),
        ownRatio: '-',
        met: verdict(f.better === 'higher' ? ratio > 1 : ratio < 1, ratio),
      });
    }
  }
  return verdicts;
}

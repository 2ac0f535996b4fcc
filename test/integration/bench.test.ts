/**
 * @module `npm run bench` stays runnable: a --quick stdio run of the built benchmark completes and
 * prints its table, and the targets table is computed from what it wrote. No figure is asserted
 * (machines are noisy): only that every server was measured and every target got a verdict. The
 * targets' arithmetic is checked on made-up results.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareFigure } from '../../bench/beforeAfter.js';
import type { BenchResult } from '../../bench/report.js';
import { median } from '../../bench/stats.js';
import { checkTargets } from '../../bench/targets.js';
import { ROOT } from '../support/paths.js';

const out = mkdtempSync(join(tmpdir(), 'toolwire-bench-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function run(script: string, args: string[]) {
  const result = spawnSync(process.execPath, [`${ROOT}build/bench/${script}.js`, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, BENCH_OUT: out },
  });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

describe('npm run bench', () => {
  it('a --quick stdio run measures every server and the targets table judges every target', () => {
    const table = run('stdio', ['--quick']);
    expect(table).toMatch(
      /\| figure +\| +toolwire async\+Zod \| +toolwire sync\+JSON \| +toolwire \+middleware \| +SDK \| +ceiling \| +ceiling\+Zod \|/,
    );
    expect(table).toMatch(/\| server CPU µs per call, 64 in flight +\|/);
    expect(table).toMatch(/\| server CPU µs per call, flood \(no window\) +\|/);
    const result = JSON.parse(readFileSync(join(out, 'stdio.json'), 'utf8')) as BenchResult;
    for (const name of [
      'toolwire',
      'toolwire-sync',
      'toolwire-mw',
      'sdk',
      'ceiling',
      'ceiling-zod',
    ])
      for (const figure of result.figures)
        expect(result.summary[name]?.[figure.key]?.median, `${name} ${figure.key}`).toBeGreaterThan(
          0,
        );

    const targets = run('summary', ['stdio', '--load-start=1,1,1']);
    expect(targets).toContain('load average 1.00 1.00 1.00 at start');
    for (const label of [
      'stdio calls/s at 64 in flight',
      'stdio server CPU µs per call (64 in flight)',
      'stdio p99 at 64 in flight',
      'stdio server CPU µs per call (flood)',
      'tools/list of 1000 tools',
      'cold start to first tools/list',
      'RSS after the run',
      'vs SDK: stdio calls/s, 64 in flight',
    ])
      expect(targets).toMatch(
        new RegExp(`\\| ${label.replace(/[()/]/g, '\\$&')} .*\\| +(met|MISSED) \\|`),
      );
    expect(targets).not.toContain('HTTP server CPU');
  }, 150_000);
});

/** A made-up result: `values` is server -> figure -> median. */
function made(bench: string, values: Record<string, Record<string, number>>): BenchResult {
  const keys = Object.keys(Object.values(values)[0] ?? {});
  return {
    bench,
    node: 'v0',
    quick: false,
    rounds: 1,
    loadStart: [0, 0, 0],
    loadEnd: [0, 0, 0],
    servers: Object.fromEntries(Object.keys(values).map((n) => [n, n])),
    figures: keys.map((key) => ({
      key,
      label: key,
      better: key.startsWith('rps') ? ('higher' as const) : ('lower' as const),
    })),
    perRound: {},
    summary: Object.fromEntries(
      Object.entries(values).map(([n, figures]) => [
        n,
        Object.fromEntries(
          Object.entries(figures).map(([k, v]) => [k, { median: v, min: v, max: v }]),
        ),
      ]),
    ),
  };
}

describe('targets', () => {
  it('compares with the ceiling by the bounds of the issue, inclusive', () => {
    const verdicts = checkTargets({
      stdio: made('stdio', {
        toolwire: { rps64: 80, cpuUs64: 17, p99_64: 2, list1000: 1, coldStart: 1, rss: 1 },
        sdk: { rps64: 1, cpuUs64: 100, p99_64: 100, list1000: 100, coldStart: 100, rss: 100 },
        ceiling: { rps64: 100, cpuUs64: 10, p99_64: 1, list1000: 1, coldStart: 1, rss: 1 },
      }),
    });
    const met = (target: string) => verdicts.find((v) => v.target === target)?.met;
    expect(met('stdio calls/s at 64 in flight')).toBe(true); // 0.8x, the bound itself
    expect(met('stdio server CPU µs per call (64 in flight)')).toBe(false); // 1.7x > 1.6x
    expect(met('stdio p99 at 64 in flight')).toBe(true); // 2x, the bound itself
    expect(met('HTTP server CPU µs per call at 16 clients')).toBeUndefined(); // not run
    expect(verdicts.filter((v) => v.target.startsWith('vs SDK')).every((v) => v.met)).toBe(true);
    // No ceiling+Zod server in this run: no share of toolwire's own to show.
    expect(verdicts.every((v) => v.ownRatio === '-')).toBe(true);
  });

  it('judges the 2026 stateless call against the 2025 session call, at 1.2x inclusive', () => {
    const run = (cpu2026: number) =>
      checkTargets({
        http: made('http', {
          toolwire: { cpuUs16: 100 },
          'toolwire-2026': { cpuUs16: cpu2026 },
          sdk: { cpuUs16: 500 },
          'sdk-json': { cpuUs16: 500 },
          ceiling: { cpuUs16: 80 },
        }),
      }).find((v) => v.target.startsWith('HTTP 2026'));
    expect(run(120)).toMatchObject({ met: true, ratio: '1.20' });
    expect(run(121)?.met).toBe(false);
    // A run without the 2026 row judges nothing about it.
    const without = checkTargets({
      http: made('http', {
        toolwire: { cpuUs16: 1 },
        sdk: { cpuUs16: 2 },
        ceiling: { cpuUs16: 1 },
      }),
    });
    expect(without.some((v) => v.target.startsWith('HTTP 2026'))).toBe(false);
  });

  it("shows toolwire's own share against the ceiling plus Zod", () => {
    const verdicts = checkTargets({
      stdio: made('stdio', {
        toolwire: { coldStart: 200, rss: 90 },
        ceiling: { coldStart: 60, rss: 50 },
        'ceiling-zod': { coldStart: 160, rss: 75 },
      }),
    });
    // Cold start is judged against the ceiling plus Zod (Zod alone costs a multiple of the bare
    // ceiling): 1.25x > 1.2x.
    const cold = verdicts.find((v) => v.target === 'cold start to first tools/list');
    expect([cold?.goal, cold?.ratio, cold?.ownRatio, cold?.met]).toEqual([
      '<= 1.2x ceiling+Zod',
      '1.25',
      '1.25',
      false,
    ]);
    expect(cold?.reference).toBe('160 (ceiling+Zod)');
    expect(verdicts.find((v) => v.target === 'RSS after the run')?.ownRatio).toBe('1.20');
  });

  it('judges cold start at 1.2x the ceiling plus Zod inclusive, and the flood at 2x the ceiling', () => {
    const verdicts = checkTargets({
      stdio: made('stdio', {
        toolwire: { coldStart: 120, cpuUsFlood: 5 },
        ceiling: { coldStart: 40, cpuUsFlood: 2.5 },
        'ceiling-zod': { coldStart: 100, cpuUsFlood: 3 },
      }),
    });
    const met = (target: string) => verdicts.find((v) => v.target === target)?.met;
    expect(met('cold start to first tools/list')).toBe(true); // 1.2x ceiling+Zod, the bound
    expect(met('stdio server CPU µs per call (flood)')).toBe(true); // 2x ceiling, the bound
  });

  it('holds toolwire to the better of the SDK modes, figure by figure', () => {
    const verdicts = checkTargets({
      http: made('http', {
        toolwire: { rps16: 100, cpuUs16: 50 },
        sdk: { rps16: 120, cpuUs16: 200 },
        'sdk-json': { rps16: 90, cpuUs16: 40 },
        ceiling: { rps16: 200, cpuUs16: 40 },
      }),
    });
    const rps = verdicts.find((v) => v.target === 'vs SDK: http rps16');
    const cpu = verdicts.find((v) => v.target === 'vs SDK: http cpuUs16');
    expect([rps?.reference, rps?.met]).toEqual(['120 (sdk)', false]);
    expect([cpu?.reference, cpu?.met]).toEqual(['40.0 (sdk-json)', false]);
    expect(verdicts.find((v) => v.target.startsWith('HTTP server CPU'))?.met).toBe(true);
  });
});

describe('before/after comparison', () => {
  it('calls a figure WORSE only when it moved the wrong way by more than the larger spread', () => {
    // CPU per call (lower is better): before 10 [9-11], after 12.5 [12-13]; spread 2 < 2.5.
    const cpu = compareFigure([9, 10, 11], [12, 12.5, 13], 'lower');
    expect([cpu.before.median, cpu.after.median, cpu.noise, cpu.change]).toEqual([
      10,
      12.5,
      2,
      'WORSE',
    ]);
    expect(cpu.ratio).toBeCloseTo(1.25);
    // The same move inside a wider spread is noise.
    expect(compareFigure([8, 10, 12], [12, 12.5, 13], 'lower').change).toBe('within spread');
    // For a rate, lower is worse and higher better.
    expect(compareFigure([100, 101, 102], [90, 91, 92], 'higher').change).toBe('WORSE');
    expect(compareFigure([100, 101, 102], [110, 111, 112], 'higher').change).toBe('better');
  });

  it('takes the mean of the two middle rounds as the median of an even count', () => {
    expect(median([3, 1])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([5, 1, 3])).toBe(3);
    expect(median([])).toBeNaN();
  });
});

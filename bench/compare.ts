/**
 * The before/after comparison: the toolwire benchmark servers run against two builds of the
 * library, measured alternately (A then B in one round, B then A in the next: a noisy moment or a
 * drift of the shared machine hits both sides alike), and per figure the median and [min-max] of
 * each side over the rounds, their ratio, and whether the second side is worse than the first by
 * more than the run-to-run spread (beforeAfter.ts). The SDK and the ceilings are left out: they
 * do not change with toolwire. `npm run bench -- --compare <rev-or-dir> [<rev-or-dir>]` prepares
 * the two sides (scripts/benchSides.mjs) and runs this:
 *
 *   node build/bench/compare.js --side=<label>=<dir> --side=<label>=<dir> [--quick] [--rounds=N]
 *     [stdio] [http]
 *
 * A side's <dir> holds `servers/` (this checkout's compiled bench servers, the same code for both
 * sides) and a `node_modules/` whose `toolwire` is the build that side measures.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { compareFigure, comparisonTable, type Comparison } from './beforeAfter.js';
import { HTTP_FIGURES, httpCounts, measureHttp } from './httpMeasure.js';
import { formatLoad, type Figure, type RoundFigures } from './report.js';
import { measureStdio, STDIO_FIGURES, stdioCounts } from './stdioMeasure.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const rounds = Number(args.find((a) => a.startsWith('--rounds='))?.slice(9) ?? (quick ? 3 : 5));
const sides = args
  .filter((a) => a.startsWith('--side='))
  .map((a) => {
    const [label = '', dir = ''] = a.slice('--side='.length).split(/=(.*)/s);
    return { label, dir };
  });
const [before, after] = sides;
if (sides.length !== 2 || !before || !after)
  throw new Error('give two sides: --side=<label>=<dir> --side=<label>=<dir>');
if (!Number.isInteger(rounds) || rounds < 2)
  throw new Error('--rounds must be 2 or more: one round has no spread');

/** A benchmark of the comparison: the servers that depend on toolwire, and how to measure one. */
interface CompareBench {
  /** Server name -> its script under a side's `servers/`. */
  servers: Record<string, string>;
  figures: Figure[];
  measure: (script: string) => Promise<RoundFigures>;
}

const BENCHES: Record<string, CompareBench> = {
  stdio: {
    servers: {
      'toolwire async+Zod': 'toolwireServer.js',
      'toolwire sync+JSON': 'toolwireJsonServer.js',
      'toolwire +middleware': 'toolwireMiddlewareServer.js',
    },
    figures: STDIO_FIGURES,
    measure: (script) => measureStdio(script, stdioCounts(quick)),
  },
  http: {
    servers: {
      'toolwire async+Zod': 'httpToolwire.js',
      'toolwire sync+JSON': 'httpToolwireJson.js',
    },
    figures: HTTP_FIGURES,
    measure: (script) => measureHttp(script, {}, httpCounts(quick)),
  },
};
const chosen = args.filter((a) => a in BENCHES);
const benches = chosen.length > 0 ? chosen : Object.keys(BENCHES);

/** bench -> server -> side label -> one RoundFigures per round. */
const measured: Record<string, Record<string, Record<string, RoundFigures[]>>> = {};
const loadStart = loadavg();
const started = Date.now();
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? [before, after] : [after, before];
  for (const bench of benches) {
    const spec = BENCHES[bench];
    if (!spec) continue;
    for (const [server, script] of Object.entries(spec.servers)) {
      for (const side of order) {
        process.stderr.write(
          `[bench compare] round ${r + 1}/${rounds}: ${bench} ${server} on ${side.label}\n`,
        );
        const figures = await spec.measure(`${side.dir}/servers/${script}`);
        (((measured[bench] ??= {})[server] ??= {})[side.label] ??= []).push(figures);
      }
    }
  }
}

const labels = [before.label, after.label] as const;
const results: Record<string, Record<string, Record<string, Comparison>>> = {};
let worse = 0;
let compared = 0;
console.log(
  `\nbefore/after: ${labels[0]} (before) vs ${labels[1]} (after); ${rounds} rounds, alternating ` +
    `which side goes first; median [min-max] over the rounds${quick ? ' (--quick counts)' : ''}.\n` +
    `node ${process.version}; ${availableParallelism()} CPUs; load average ` +
    `${formatLoad(loadStart)} at start, ${formatLoad(loadavg())} at end; ` +
    `${((Date.now() - started) / 60_000).toFixed(1)} min.\n` +
    `"spread" is the larger min-max range of the two sides; a figure is WORSE when after is ` +
    `worse than before by more than it.`,
);
for (const bench of benches) {
  const spec = BENCHES[bench];
  if (!spec) continue;
  for (const server of Object.keys(spec.servers)) {
    const perSide = measured[bench]?.[server] ?? {};
    const values = (label: string, key: string) =>
      (perSide[label] ?? []).map((f) => f[key] ?? NaN).filter((v) => Number.isFinite(v));
    const comparisons = Object.fromEntries(
      spec.figures.map((f) => [
        f.key,
        compareFigure(values(labels[0], f.key), values(labels[1], f.key), f.better),
      ]),
    );
    (results[bench] ??= {})[server] = comparisons;
    compared += spec.figures.length;
    worse += Object.values(comparisons).filter((c) => c.change === 'WORSE').length;
    console.log(`\n${bench}, ${server}\n`);
    console.log(comparisonTable(labels, spec.figures, comparisons));
  }
}
console.log(
  `\n${worse} of ${compared} figures worse than before by more than the run-to-run spread`,
);

const out = process.env['BENCH_OUT'] ?? fileURLToPath(new URL('../../.bench-out', import.meta.url));
mkdirSync(out, { recursive: true });
writeFileSync(
  `${out}/compare.json`,
  JSON.stringify(
    { labels, rounds, quick, loadStart, loadEnd: loadavg(), measured, results },
    null,
    2,
  ),
);

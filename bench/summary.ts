/**
 * The closing table of `npm run bench`: the targets checked against the results the
 * stdio and HTTP benchmarks of this run wrote (.bench-out/<bench>.json), each met or MISSED with
 * its numbers, and the conditions of the run (Node version, load average at start and end).
 *
 *   node build/bench/summary.js <bench>... --load-start=<1m>,<5m>,<15m>
 */
import { availableParallelism, loadavg } from 'node:os';
import { formatLoad, markdownTable, readResult, type BenchResult } from './report.js';
import { checkTargets } from './targets.js';

const args = process.argv.slice(2);
const benches = args.filter((a) => !a.startsWith('--'));
const loadStart = args
  .find((a) => a.startsWith('--load-start='))
  ?.slice('--load-start='.length)
  .split(',')
  .map(Number);
const results: Record<string, BenchResult> = {};
for (const bench of benches) {
  const result = readResult(bench);
  if (result) results[bench] = result;
}
const verdicts = checkTargets(results);
if (verdicts.length > 0) {
  const quick = Object.values(results).some((r) => r.quick);
  console.log(
    `\ntargets (issues 10 and 21): toolwire = the async + Zod server; ratios of medians from this run` +
      `${quick ? ' (a --quick run: 1 round, small counts, not for comparison)' : ''}`,
  );
  console.log(
    `node ${process.version}; load average ${loadStart ? formatLoad(loadStart) : '?'} at start, ` +
      `${formatLoad(loadavg())} at end (1, 5 and 15 min; ${availableParallelism()} CPUs)\n`,
  );
  console.log(
    markdownTable(
      ['target', 'goal', 'toolwire', 'reference', 'ratio', 'vs ceiling+Zod', 'verdict'],
      verdicts.map((v) => [
        v.target,
        v.goal,
        v.toolwire,
        v.reference,
        v.ratio,
        v.ownRatio,
        v.met === undefined ? 'not measured' : v.met ? 'met' : 'MISSED',
      ]),
    ),
  );
  const missed = verdicts.filter((v) => v.met === false).length;
  console.log(`\n${verdicts.length - missed} of ${verdicts.length} targets met, ${missed} MISSED`);
}

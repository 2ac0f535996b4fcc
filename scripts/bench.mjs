// `npm run bench`: prepare (install, build), then the stdio, HTTP and task benchmarks, side by side
// with the official SDK and a bare ceiling in one run, then the targets table (bench/summary.ts)
// from the results this run wrote. `-- --quick` for a short smoke run; `-- stdio`, `-- http` or
// `-- tasks` for one of them. Linux only: server CPU and memory are read from /proc.
//
// `-- --compare <before> [<after>]`: the before/after comparison (bench/compare.ts) of two builds
// of the library, each a git revision or a checkout directory (<after> defaults to this
// checkout), the toolwire servers measured alternately over rounds; `--rounds=N`, `--quick`,
// `stdio` or `http` narrow it (default: stdio and http, 5 rounds; --quick: 3 rounds, small counts).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { prepareSide, resolveBuild } from './benchSides.mjs';
import { prepare } from './prepare.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const only = args.filter((a) => a === 'stdio' || a === 'http' || a === 'tasks');
const flags = args.filter((a) => a.startsWith('--'));
const out = process.env.BENCH_OUT ?? `${root}.bench-out`;
const benches = only.length > 0 ? only : ['stdio', 'http', 'tasks'];
const run = (script, extra) =>
  execFileSync(process.execPath, [`${root}build/bench/${script}.js`, ...extra], {
    cwd: root,
    stdio: 'inherit',
  });

prepare();
const compareAt = args.indexOf('--compare');
if (compareAt >= 0) {
  const specs = args.slice(compareAt + 1).filter((a) => !a.startsWith('--') && !only.includes(a));
  if (specs.length < 1 || specs.length > 2)
    throw new Error('--compare takes one or two git revisions or checkout directories');
  const builds = [resolveBuild(root, specs[0]), resolveBuild(root, specs[1] ?? root)];
  if (builds[0].label === builds[1].label) builds[1].label += ' (after)';
  const sides = builds.map(
    (build, i) => `--side=${build.label}=${prepareSide(root, i + 1, build)}`,
  );
  run('compare', [...sides, ...only, ...flags.filter((f) => f !== '--compare')]);
  process.exit(0);
}
const loadStart = loadavg().map((l) => l.toFixed(2));
console.log(
  `[bench] node ${process.version}, ${availableParallelism()} CPUs, load average ${loadStart.join(' ')}`,
);
for (const bench of benches) {
  // The targets table reads only what this run writes.
  rmSync(`${out}/${bench}.json`, { force: true });
  run(bench, flags);
}
run('summary', [...benches, `--load-start=${loadStart.join(',')}`]);

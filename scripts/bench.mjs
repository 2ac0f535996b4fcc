// `npm run bench`: prepare (install, build), then run the benchmarks. `--quick` for a short run.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { prepare } from './prepare.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
prepare();
execFileSync(process.execPath, [`${root}build/bench/stdio.js`, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});

// `npm run bench`: prepare (install, build), then the stdio, HTTP and task benchmarks, side by side
// with the official SDK and a bare ceiling in one run. `-- --quick` for a short smoke run;
// `-- stdio`, `-- http` or `-- tasks` for one of them.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { prepare } from './prepare.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const only = args.filter((a) => a === 'stdio' || a === 'http' || a === 'tasks');
const flags = args.filter((a) => a.startsWith('--'));
prepare();
for (const bench of only.length > 0 ? only : ['stdio', 'http', 'tasks']) {
  execFileSync(process.execPath, [`${root}build/bench/${bench}.js`, ...flags], {
    cwd: root,
    stdio: 'inherit',
  });
}

// `npm start`: the main job. Builds if needed, then runs the "everything" example server and
// calls it through the toolwire CLI: list its tools, then call a few of them (one runs as a task).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { prepare } from './prepare.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
prepare();
const cli = `${root}dist/cli/main.js`;
const server = ['--', process.execPath, cli, 'serve', `${root}build/examples/everything/server.js`];
// On a terminal, `call` asks before each tool not marked read-only: the person answers. Off one
// (CI, a pipe) it would refuse them (exit 2), so the demo allows them with --yes and says so.
const interactive = process.stdin.isTTY === true && process.stderr.isTTY === true;
if (!interactive)
  console.log(
    '(no terminal to confirm on: calls pass --yes; on a terminal toolwire asks before each tool not marked read-only)',
  );
const toolwire = (...args) => {
  if (args[0] === 'call' && !interactive) args.push('--yes');
  console.log(`\n$ toolwire ${args.join(' ')}`);
  try {
    execFileSync(process.execPath, [cli, ...args, ...server], { cwd: root, stdio: 'inherit' });
  } catch (error) {
    console.log(`(exit status ${error.status})`);
  }
};

toolwire('list');
toolwire('call', 'add', '--arg', 'a=2', '--arg', 'b=40');
toolwire('call', 'weather', '--arg', 'city=Lisbon');
toolwire('call', 'long_running', '--arg', 'steps=5', '--arg', 'delayMs=150');
toolwire('call', 'report', '--arg', 'sections=3', '--arg', 'delayMs=200');
toolwire('call', 'resources');
toolwire('call', 'fail');

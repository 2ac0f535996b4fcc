// `npm start`: the main job. Builds if needed, then runs the "everything" example server and
// calls it through the toolwire CLI: list its tools, then call a few of them (one runs as a task).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { prepare } from './prepare.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
prepare();
const cli = `${root}dist/cli/main.js`;
const server = ['--', process.execPath, cli, 'serve', `${root}build/examples/everything/server.js`];
const toolwire = (...args) => {
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

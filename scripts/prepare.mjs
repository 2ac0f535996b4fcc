// Makes a fresh checkout runnable: installs dependencies when they are missing or stale
// (npm ci, from the committed lock file), then builds the library and examples.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = (args) => execFileSync(npm, args, { cwd: root, stdio: 'inherit' });

export function prepare() {
  const marker = `${root}node_modules/.package-lock.json`;
  const stale =
    !existsSync(marker) || statSync(marker).mtimeMs < statSync(`${root}package-lock.json`).mtimeMs;
  if (stale) {
    console.error('[prepare] installing dependencies (npm ci)');
    run(['ci', '--no-audit', '--no-fund']);
  }
  console.error('[prepare] building');
  run(['run', '--silent', 'build']);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) prepare();

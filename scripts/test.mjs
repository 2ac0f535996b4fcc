// `npm test`: prepare (install, build what changed), then type-check, lint, format check, and run every test.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { plainOutputEnv } from './plainOutput.mjs';
import { prepare } from './prepare.mjs';
import { ensureRedisServer } from './redisServer.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => `${root}node_modules/.bin/${name}`;
// Off a terminal (a log file, CI), the steps and the processes the tests start print no colour.
const env = plainOutputEnv();
const step = (label, file, args) => {
  console.error(`[test] ${label}`);
  execFileSync(file, args, { cwd: root, stdio: 'inherit', env });
};

try {
  prepare();
  // Installed once up front: test files run in parallel and apt-get takes a lock.
  console.error(`[test] redis-server: ${ensureRedisServer()}`);

  step('type-check (all code, and the runtime-neutral core without Node types)', bin('tsc'), [
    '-p',
    'tsconfig.json',
  ]);
  step('type-check core', bin('tsc'), ['-p', 'tsconfig.core.json']);
  step('lint', bin('eslint'), ['--max-warnings=0', '.']);
  step('format', bin('prettier'), ['--check', '.']);
  step('publint', bin('publint'), ['--strict']);
  step('tests', bin('vitest'), ['run', ...process.argv.slice(2)]);
} catch (error) {
  process.exitCode = typeof error?.status === 'number' ? error.status : 1;
}

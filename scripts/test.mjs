// `npm test`: prepare (install, build what changed), then, at the same time, every test (vitest,
// every lane of test/lanes.ts) and the checks: the type-checks (everything, and the
// runtime-neutral core without Node types) and lint in one process, format, publint. Fails when
// any of them fails. The format check does not read the build: it starts before it, once the
// dependencies are there.
//
// The checks used to run one after another before the first test (about 3 minutes on a 2-core
// machine). The tests spend much of their time waiting (child processes, sockets, Redis, a
// browser), so the checks run beside them at the lowest priority (nice 19): they take the CPU the
// tests leave idle, mostly once the long files are done and the tests alone no longer fill both
// cores, and a test that needs the CPU is hardly slowed (nice 5 finished the checks early, then
// left a quarter of the CPU idle for the last two minutes: 376 s against 334 s on a fresh clone).
// Vitest writes to the terminal as it goes; each check's output is kept together and printed once
// it ends (a failed check's in full, a passed one's as one line), so nothing interleaves line by
// line.
//
//   npm test                    everything
//   npm test -- <vitest args>   everything, with these arguments for vitest (e.g. a file filter)
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { plainOutputEnv } from './plainOutput.mjs';
import { buildChanged, installIfStale } from './prepare.mjs';
import { ensureRedisServer } from './redisServer.mjs';
import { createScratchDir, removeScratchDir } from './scratchDir.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => `${root}node_modules/.bin/${name}`;
// Off a terminal (a log file, CI), the steps and the processes the tests start print no colour.
const env = plainOutputEnv();
// The tests' temporary files in RAM where that is possible (scripts/scratchDir.mjs says why).
const scratch = createScratchDir(env);
if (scratch) env.TMPDIR = scratch;
/** The checks' priority: below the tests (0), so they mostly use what the tests leave. */
const CHECK_NICENESS = 19;

/** The checks: label, program, arguments, and whether it reads the build (dist/, build/). */
const CHECKS = [
  // `tsc -p tsconfig.json`, `tsc -p tsconfig.core.json` (the runtime-neutral core without Node
  // types) and `eslint --max-warnings=0 .` in one process, ESLint sharing the first program
  // (scripts/typeCheckAndLint.mjs). Examples and benchmarks import toolwire by its package name:
  // its types are in dist/.
  ['type-checks and lint', process.execPath, [`${root}scripts/typeCheckAndLint.mjs`], true],
  ['format', bin('prettier'), ['--check', '.'], false],
  ['publint', bin('publint'), ['--strict'], true],
];

/** Node arguments that install the conformance suite when missing (scripts/conformance.mjs). */
const CONFORMANCE_INSTALL = [
  '--input-type=module',
  '-e',
  `(await import(${JSON.stringify(`${root}scripts/conformance.mjs`)})).ensureConformance();`,
];

const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

/**
 * Runs one step as a child process; resolves with its exit code and, when `collect`, its output
 * (stdout and stderr in the order written).
 */
function run(label, file, args, { collect, niceness = 0 }) {
  const started = Date.now();
  const child = spawn(file, args, { cwd: root, env, stdio: collect ? 'pipe' : 'inherit' });
  if (niceness !== 0) {
    try {
      setPriority(child.pid, niceness);
    } catch {
      // Not permitted here: it runs at the same priority, only slower to finish.
    }
  }
  const output = [];
  child.stdout?.on('data', (chunk) => output.push(chunk));
  child.stderr?.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      resolve({ label, code: 1, output: Buffer.concat(output).toString(), took: seconds(started) });
    });
    child.on('close', (code, signal) =>
      resolve({
        label,
        code: code ?? (signal ? 1 : 0),
        output: Buffer.concat(output).toString(),
        took: seconds(started),
      }),
    );
  });
}

/** Prints a finished check: one line when it passed, its whole output when it failed. */
function report(check) {
  if (check.code === 0) {
    console.error(`[test] ${check.label}: passed (${check.took})`);
    return;
  }
  const rule = '-'.repeat(20);
  process.stderr.write(
    `[test] ${rule} ${check.label}: FAILED (exit ${check.code}, ${check.took}) ${rule}\n` +
      `${check.output.trimEnd()}\n[test] ${rule} end of ${check.label} ${rule}\n`,
  );
}

async function main() {
  const started = Date.now();
  const startCheck = ([label, file, args]) =>
    run(label, file, args, { collect: true, niceness: CHECK_NICENESS });
  // The conformance suite (and its Node 22) is installed here, not by the first test file that
  // needs it: two of them run at once. It goes into a folder of its own, shared by the user's
  // checkouts (scripts/conformance.mjs), so it runs beside `npm ci` (npm's cache takes concurrent
  // use), and a fresh clone finds it there.
  const conformance = run('conformance suite install', process.execPath, CONFORMANCE_INSTALL, {
    collect: true,
  });
  installIfStale();
  const checks = CHECKS.filter(([, , , needsBuild]) => !needsBuild).map(startCheck);
  buildChanged();
  // Installed once up front: test files run in parallel and apt-get takes a lock.
  console.error(`[test] redis-server: ${ensureRedisServer()}`);
  const installed = await conformance;
  // When it failed, the conformance tests try again, and fail saying why.
  if (installed.code !== 0) report(installed);
  console.error(`[test] tests, with ${CHECKS.map(([label]) => label).join(', ')} beside them`);
  checks.push(...CHECKS.filter(([, , , needsBuild]) => needsBuild).map(startCheck));

  // Vitest's own output goes straight to the terminal; a check's is held until vitest ends, so
  // that the two do not interleave (a failed check is also printed at once if vitest is done).
  let testsDone = false;
  const held = [];
  for (const check of checks) {
    void check.then((result) => (testsDone ? report(result) : held.push(result)));
  }
  const tests = await run('tests', bin('vitest'), ['run', ...process.argv.slice(2)], {
    collect: false,
  });
  testsDone = true;
  held.splice(0).forEach(report);
  const results = [tests, ...(await Promise.all(checks))];

  const failed = results.filter((result) => result.code !== 0);
  console.error(
    failed.length === 0
      ? `[test] all passed in ${seconds(started)}`
      : `[test] FAILED: ${failed.map((result) => result.label).join(', ')} (${seconds(started)})`,
  );
  return failed[0]?.code ?? 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  // The install, the build and ensureRedisServer() print what failed; the exit code says it.
  if (typeof error?.status !== 'number') console.error(`[test] ${error?.message ?? error}`);
  process.exitCode = typeof error?.status === 'number' ? error.status : 1;
} finally {
  removeScratchDir(scratch);
}

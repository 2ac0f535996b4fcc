/**
 * @module What the runnable examples (`npm run example:oauth`, `npm run example:scale-out`)
 * share: the repository's folder, free loopback ports, and child processes started and waited
 * for by a line they print, all stopped together when the example ends.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder of this repository (the one whose package.json is toolwire's). */
export function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'toolwire'
    )
      return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('not inside the toolwire repository');
    dir = parent;
  }
}

/** The toolwire command of this repository, as a person would type it from the current folder. */
export function toolwireCommand(root: string): { file: string; shown: string } {
  const file = join(root, 'dist/cli/main.js');
  const shown = relative(process.cwd(), file) || file;
  return { file, shown: `node ${shown.includes(' ') ? JSON.stringify(shown) : shown}` };
}

/** `port`, or a port free on 127.0.0.1 now when it is 0. */
export async function portOr(port: number): Promise<number> {
  if (port !== 0) return port;
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const free = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(free));
    });
  });
}

/** A child process of the example. */
export interface Started {
  readonly child: ChildProcess;
  /** What it printed so far (stdout and stderr), for error messages. */
  output(): string;
}

const running: ChildProcess[] = [];

// Whatever way the example ends, its servers end with it.
process.on('exit', () => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
});

/**
 * Starts `command` and resolves once it prints a line matching `ready` (within 30 s); rejects
 * with what it printed if it exits first.
 */
export function start(
  name: string,
  command: string,
  args: readonly string[],
  ready: RegExp,
): Promise<Started> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    let started = false;
    const timer = setTimeout(() => fail('did not start within 30 s'), 30_000);
    const fail = (why: string) => {
      if (started) return;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${name} ${why}:\n${output}`));
    };
    const read = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8000);
      if (!started && ready.test(output)) {
        started = true;
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code) => fail(`exited (${code})`));
  });
}

/**
 * Stops every process started, in the reverse order: SIGTERM, then SIGKILL for one still running
 * after `graceMs`.
 */
export async function stopAll(graceMs = 12_000): Promise<void> {
  for (const child of running.reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
}

/** Runs `stop` once on Ctrl-C or SIGTERM, then exits. */
export function onStop(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = () => {
    if (stopping) return;
    stopping = true;
    void stop().finally(() => process.exit(0));
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}

/**
 * @module Vitest setup that guards the files of the in-process lanes (`unit`, `contract`: the
 * quick lane, `npm run test:quick`; test/lanes.ts). The quick lane promises no child process, no
 * listening socket and no outgoing connection (so no Redis, no browser, no HTTP over 127.0.0.1):
 * a test file that needs one belongs on the out-of-process list in test/lanes.ts. The static guard
 * (test/contract/lanes.test.ts) reads each file's imports; this one catches what imports cannot
 * show (a helper that spawns, a library that connects): the Node functions that start a process,
 * listen or connect are wrapped so that, while a file of the quick lane runs, the first call
 * records the test that made it, and the test fails after it ends, even when the code under test
 * caught the error the wrapper threw. A worker runs files of every lane one after another (one
 * Vitest project): the setup runs before each file, and guards only the quick lane's.
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { relative } from 'node:path';
import { afterEach, expect } from 'vitest';
import { laneOf } from '../lanes.js';
import { ROOT } from './paths.js';

const WRAPPED = Symbol.for('toolwire.test.inProcessOnly');
const GUARDING = Symbol.for('toolwire.test.inProcessOnly.guarding');
const state = globalThis as { [WRAPPED]?: boolean; [GUARDING]?: boolean };
const violations: string[] = [];

class OutOfProcessError extends Error {
  constructor(what: string) {
    super(
      `${what} in the in-process lane: add this test file to OUT_OF_PROCESS in test/lanes.ts ` +
        '(the quick lane runs no process, socket, Redis or browser)',
    );
    this.name = 'OutOfProcessError';
  }
}

/** Records and refuses `what`, naming the running test. */
function refuse(what: string): never {
  const test = expect.getState().currentTestName ?? '(outside a test)';
  violations.push(`${test}: ${what}`);
  throw new OutOfProcessError(what);
}

function wrap<T extends object>(target: T, names: readonly (keyof T & string)[], label: string) {
  for (const name of names) {
    const original = target[name];
    if (typeof original !== 'function') continue;
    Object.defineProperty(target, name, {
      configurable: true,
      writable: true,
      value: function guarded(this: unknown, ...args: unknown[]): unknown {
        if (!state[GUARDING]) return (original as (...a: unknown[]) => unknown).apply(this, args);
        const first = typeof args[0] === 'string' ? ` ${args[0]}` : '';
        return refuse(`${label}.${name}${first}`);
      },
    });
  }
}

// The setup file runs before each test file (before the file is imported): the guard is on for
// the files of the quick lanes only. A worker that runs several files wraps once.
const testFile = relative(ROOT, expect.getState().testPath ?? '').replaceAll('\\', '/');
state[GUARDING] = laneOf(testFile)?.quick === true;
if (!state[WRAPPED]) {
  state[WRAPPED] = true;
  wrap(
    childProcess,
    ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'],
    'child_process',
  );
  wrap(net.Server.prototype, ['listen'], 'net.Server');
  wrap(net.Socket.prototype, ['connect'], 'net.Socket');
  // Named imports of node:child_process (`import { spawn } from ...`) see the wrappers too.
  syncBuiltinESMExports();
}

afterEach(() => {
  const found = violations.splice(0);
  expect(found, 'the in-process lane starts no process and opens no socket').toEqual([]);
});

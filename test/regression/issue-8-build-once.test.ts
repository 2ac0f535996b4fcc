/**
 * @module Issue 8: `npm start` and `npm test` rebuilt everything on every run. scripts/prepare.mjs
 * now builds the library (dist/) and the examples (build/) only when their inputs or outputs
 * changed. Run on a copy of the tree in a temporary folder (sharing the installed node_modules).
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';

const COPIED = [
  'src',
  'examples',
  'test/fixtures',
  'bench',
  'scripts',
  'tsconfig.json',
  'tsconfig.build.json',
  'tsconfig.examples.json',
  'package.json',
  'package-lock.json',
];

let tree = '';

/** Runs the preparation `npm start` and `npm test` run; returns what it reported. */
function prepare(): string {
  const run = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', "(await import('./scripts/prepare.mjs')).prepare();"],
    { cwd: tree, encoding: 'utf8', timeout: 120_000 },
  );
  expect(run.status, run.stderr).toBe(0);
  return `${run.stdout}${run.stderr}`;
}

/** Which targets prepare would build now, asked of the copy's own scripts/prepare.mjs. */
function stale(): { lib: boolean; examples: boolean } {
  const run = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "const m = await import('./scripts/prepare.mjs'); console.log(JSON.stringify({ lib: m.isStale('lib'), examples: m.isStale('examples') }));",
    ],
    { cwd: tree, encoding: 'utf8', timeout: 30_000 },
  );
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { lib: boolean; examples: boolean };
}

/** Sets a file's mtime (one second ahead by default, visible at any mtime granularity). */
function touch(path: string, time = new Date(Date.now() + 1000)): void {
  utimesSync(join(tree, path), time, time);
}

describe('issue 8: the build runs only when something changed', () => {
  beforeAll(() => {
    tree = mkdtempSync(join(tmpdir(), 'toolwire-build-'));
    for (const path of COPIED) {
      cpSync(join(ROOT, path), join(tree, path), { recursive: true, preserveTimestamps: true });
    }
    symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'), 'dir');
    // The copy shares the checkout's installed dependencies; prepare must not reinstall them.
    const installed = statSync(join(ROOT, 'node_modules/.package-lock.json')).mtimeMs;
    expect(installed, 'node_modules is up to date with package-lock.json').toBeGreaterThanOrEqual(
      statSync(join(tree, 'package-lock.json')).mtimeMs,
    );
  });
  afterAll(() => {
    if (tree) rmSync(tree, { recursive: true, force: true });
  });

  it('builds a fresh tree once, then skips until an input or output changes', () => {
    expect(prepare()).toContain('building');
    expect(existsSync(join(tree, 'dist/cli/main.js'))).toBe(true);
    expect(existsSync(join(tree, 'build/examples/everything/server.js'))).toBe(true);
    const builtAt = statSync(join(tree, 'dist/index.js')).mtimeMs;

    const second = prepare();
    expect(second).not.toContain('building');
    expect(second).toContain('up to date');
    expect(statSync(join(tree, 'dist/index.js')).mtimeMs).toBe(builtAt);

    // Only an example changed: only the examples are stale; its old mtime back, neither is.
    const example = 'examples/quickstart/server.ts';
    const exampleTime = statSync(join(tree, example)).mtime;
    touch(example);
    expect(stale()).toEqual({ lib: false, examples: true });
    touch(example, exampleTime);
    expect(stale()).toEqual({ lib: false, examples: false });

    // An output changed (a stray file, a removed file): the library is stale.
    writeFileSync(join(tree, 'dist/stray.js'), '');
    expect(stale()).toEqual({ lib: true, examples: false });
    rmSync(join(tree, 'dist/stray.js'));
    expect(stale()).toEqual({ lib: false, examples: false });

    // A library source changed: both are stale (the examples compile against the library).
    const sourceTime = statSync(join(tree, 'src/server/mcpServer.ts')).mtime;
    touch('src/server/mcpServer.ts');
    expect(stale()).toEqual({ lib: true, examples: true });
    touch('src/server/mcpServer.ts', sourceTime);
    expect(stale()).toEqual({ lib: false, examples: false });

    // A removed output: its target is stale.
    rmSync(join(tree, 'build/examples/everything/server.js'));
    expect(stale()).toEqual({ lib: false, examples: true });

    // A target is rebuilt from an empty folder, so a stray output is gone, and only it is built
    // (the examples here: the library's own build, the same function, is the fresh build above).
    writeFileSync(join(tree, 'build/stray.js'), '');
    const afterExample = prepare();
    expect(afterExample).toContain('building build/');
    expect(afterExample).not.toContain('building dist/');
    expect(existsSync(join(tree, 'build/stray.js'))).toBe(false);
    expect(existsSync(join(tree, 'build/examples/everything/server.js'))).toBe(true);
    expect(statSync(join(tree, 'dist/index.js')).mtimeMs).toBe(builtAt);

    expect(prepare()).not.toContain('building');
  }, 240_000);
});

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

/** Marks a file as just modified (one second ahead, so the change is visible at any mtime granularity). */
function touch(path: string): void {
  const later = new Date(Date.now() + 1000);
  utimesSync(join(tree, path), later, later);
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

    // A library source changed: both builds run (the examples compile against the library).
    touch('src/server/mcpServer.ts');
    const afterSource = prepare();
    expect(afterSource).toContain('building dist/');
    expect(afterSource).toContain('building build/');

    // Only an example changed: only the examples build runs.
    touch('examples/quickstart/server.ts');
    const afterExample = prepare();
    expect(afterExample).not.toContain('building dist/');
    expect(afterExample).toContain('building build/');

    // An output was removed, and a stray file appeared: the library is rebuilt from scratch.
    rmSync(join(tree, 'dist/index.js'));
    writeFileSync(join(tree, 'dist/stray.js'), '');
    const afterOutput = prepare();
    expect(afterOutput).toContain('building dist/');
    expect(existsSync(join(tree, 'dist/index.js'))).toBe(true);
    expect(existsSync(join(tree, 'dist/stray.js'))).toBe(false);

    expect(prepare()).not.toContain('building');
  }, 240_000);
});

/**
 * @module Issue 8: `npm start` and `npm test` rebuilt everything on every run. scripts/prepare.mjs
 * now builds the library (dist/) and the examples (build/) only when their inputs or outputs
 * changed. Run on a copy of the tree in a temporary folder (sharing the installed node_modules),
 * with the checkout's library build and its fingerprint copied along: the fingerprints are of
 * content, so the copy's library is up to date, and only the examples are built here (the
 * library's fresh build in a clean clone is test/integration/pack.test.ts, installing from git).
 */
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
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
  'package.json',
  'package-lock.json',
];

let tree = '';

/** Runs one of the copy's scripts/prepare.mjs functions in a child process; returns its output. */
function prepareCall(call: string): string {
  const run = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `(await import('./scripts/prepare.mjs')).${call};`],
    { cwd: tree, encoding: 'utf8', timeout: 120_000 },
  );
  expect(run.status, run.stderr).toBe(0);
  return `${run.stdout}${run.stderr}`;
}

/** Runs the preparation `npm start` and `npm test` run; returns what it reported. */
const prepare = () => prepareCall('prepare()');

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

/** Changes a file's content, and returns a function that puts the old content back. */
function edit(path: string): () => void {
  const full = join(tree, path);
  const before = readFileSync(full);
  appendFileSync(full, '\n// edited\n');
  return () => writeFileSync(full, before);
}

describe('issue 8: the build runs only when something changed', () => {
  beforeAll(() => {
    tree = mkdtempSync(join(tmpdir(), 'toolwire-build-'));
    // The inputs, the library build and its fingerprint; no examples build.
    for (const path of [...COPIED, 'dist', '.cache/build/lib.json']) {
      cpSync(join(ROOT, path), join(tree, path), { recursive: true, preserveTimestamps: true });
    }
    symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'), 'dir');
    // The copy shares the checkout's installed dependencies; prepare must not reinstall them.
    const installed = statSync(join(ROOT, 'node_modules/.package-lock.json')).mtimeMs;
    expect(installed, 'node_modules is up to date with package-lock.json').toBeGreaterThanOrEqual(
      statSync(join(tree, 'package-lock.json')).mtimeMs,
    );
    // `npm test` has just built the checkout; run alone after an edit, the copy catches up here.
    prepareCall("buildChanged(['lib'])");
  }, 120_000);
  afterAll(() => {
    if (tree) rmSync(tree, { recursive: true, force: true });
  });

  it('builds only the stale target, from an empty folder, then skips until an input or output changes', () => {
    // A copied build is as good as the original: its fingerprint is of content, not of mtimes.
    expect(stale()).toEqual({ lib: false, examples: true });
    const builtAt = statSync(join(tree, 'dist/index.js')).mtimeMs;
    // A file left in the output folder by an older build: the build starts from an empty folder.
    mkdirSync(join(tree, 'build'));
    writeFileSync(join(tree, 'build/stray.js'), '');

    const first = prepare();
    expect(first).toContain('building build/');
    expect(first).not.toContain('building dist/');
    expect(existsSync(join(tree, 'build/stray.js'))).toBe(false);
    expect(existsSync(join(tree, 'build/examples/everything/server.js'))).toBe(true);
    expect(statSync(join(tree, 'dist/index.js')).mtimeMs).toBe(builtAt);

    const second = prepare();
    expect(second).not.toContain('building');
    expect(second).toContain('up to date');
    expect(stale()).toEqual({ lib: false, examples: false });

    // Only an example changed: only the examples are stale; its old content back, neither is.
    const restoreExample = edit('examples/quickstart/server.ts');
    expect(stale()).toEqual({ lib: false, examples: true });
    restoreExample();
    expect(stale()).toEqual({ lib: false, examples: false });

    // A new mtime alone (a checkout of another branch and back, a copy) changes nothing.
    const later = new Date(Date.now() + 5000);
    utimesSync(join(tree, 'src/server/mcpServer.ts'), later, later);
    expect(stale()).toEqual({ lib: false, examples: false });

    // An output changed (a stray file, a removed file): the library is stale.
    writeFileSync(join(tree, 'dist/stray.js'), '');
    expect(stale()).toEqual({ lib: true, examples: false });
    rmSync(join(tree, 'dist/stray.js'));
    expect(stale()).toEqual({ lib: false, examples: false });

    // A library source changed: only the library is stale (the examples are transpiled file by
    // file; they do not read the library's types).
    const restoreSource = edit('src/server/mcpServer.ts');
    expect(stale()).toEqual({ lib: true, examples: false });
    restoreSource();
    expect(stale()).toEqual({ lib: false, examples: false });

    // A removed output: its target is stale.
    rmSync(join(tree, 'build/examples/everything/server.js'));
    expect(stale()).toEqual({ lib: false, examples: true });
  }, 240_000);
});

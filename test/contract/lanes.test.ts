/**
 * The quick lane stays quick: every test file belongs to exactly one lane of test/lanes.ts, the lists of out-of-process and long files name files that exist, and no
 * file of the in-process projects imports what starts a process, opens a socket, talks to Redis,
 * drives a browser or needs the build. (What imports cannot show, a helper that spawns, is caught
 * when it happens, by test/support/inProcessOnly.ts.)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inLane, KNOWN_LONG, LANES, OUT_OF_PROCESS, QUICK_LANES } from '../lanes.js';
import { ROOT } from '../support/paths.js';

/** Bare modules an in-process test may not import. */
const FORBIDDEN_MODULES = [
  'child_process',
  'net',
  'http',
  'https',
  'http2',
  'tls',
  'dgram',
  'playwright-core',
  'ioredis',
];

/** Repository files an in-process test may not import (by path from the root). */
const FORBIDDEN_FILES = [
  // Entry points of the Node-only pieces: serveHttp, the stdio client (spawns), Redis.
  'src/node.ts',
  'src/stdio.ts',
  'src/redis.ts',
  // Test helpers that start processes, servers, Redis or Chromium.
  'test/support/browser.ts',
  'test/support/cliRun.ts',
  'test/support/terminal.ts',
  'test/support/redis.ts',
  'test/support/authServer.ts',
  'test/support/fakeOAuth.ts',
  'test/support/roundRobinProxy.ts',
];

/** Folders that hold no test file of the repository (the ignored ones of .gitignore, and .git). */
const IGNORED_FOLDERS = [
  '.git',
  'node_modules',
  'dist',
  'build',
  'coverage',
  '.bench-out',
  '.cache',
  'test-output',
];

/** Every test file of the repository, relative to the root. */
function testFiles(folder = ''): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    const path = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      // Not the repository's: what .gitignore leaves out (a `--compare` bench run extracts whole
      // checkouts, with their test files, into .bench-out/), and git's own folder.
      if (!IGNORED_FOLDERS.includes(entry.name)) {
        found.push(...testFiles(path));
      }
    } else if (entry.name.endsWith('.test.ts')) found.push(path);
  }
  return found.sort();
}

/** What `file` imports (static and dynamic imports with a literal specifier). */
function importsOf(file: string): string[] {
  const source = readFileSync(join(ROOT, file), 'utf8');
  const specifiers: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\s[^;]*?\sfrom\s*['"]([^'"]+)['"]/gms,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern)) specifiers.push(match[1]!);
  }
  return specifiers;
}

/** Why `file` may not import `specifier` in the in-process lane, or undefined when it may. */
function forbidden(file: string, specifier: string): string | undefined {
  const bare = specifier.replace(/^node:/, '');
  if (FORBIDDEN_MODULES.includes(bare)) return `the module ${specifier}`;
  if (specifier === 'toolwire' || specifier.startsWith('toolwire/')) {
    return `${specifier}, the build (import from src/)`;
  }
  if (!specifier.startsWith('.')) return undefined;
  const target = normalize(join(dirname(file), specifier)).replace(/\.js$/, '.ts');
  if (FORBIDDEN_FILES.includes(target)) return target;
  if (target.startsWith('test/fixtures/')) return `${target} (a fixture server, run as a process)`;
  if (/^(dist|build)\//.test(target)) return `${target} (the build)`;
  return undefined;
}

const files = testFiles();

describe('test lanes', () => {
  it('every test file is in exactly one lane', () => {
    const lanesOf = (file: string) => LANES.filter((lane) => inLane(lane, file));
    const homeless = files.filter((file) => lanesOf(file).length !== 1);
    expect(
      homeless.map(
        (file) =>
          `${file}: [${lanesOf(file)
            .map((lane) => lane.name)
            .join(', ')}]`,
      ),
    ).toEqual([]);
  });

  it('the out-of-process and known-long lists name existing test files, once', () => {
    for (const list of [OUT_OF_PROCESS, Object.keys(KNOWN_LONG)]) {
      expect(list.filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
      expect(new Set(list).size).toBe(list.length);
    }
  });

  it('no file of the in-process (quick) projects imports a process, a socket, Redis, a browser or the build', () => {
    const quick = LANES.filter((lane) => lane.quick);
    const problems = files
      .filter((file) => quick.some((lane) => inLane(lane, file)))
      .flatMap((file) =>
        importsOf(file).flatMap((specifier) => {
          const why = forbidden(file, specifier);
          return why === undefined ? [] : [`${file} imports ${why}: list it in OUT_OF_PROCESS`];
        }),
      );
    expect(problems).toEqual([]);
  });

  it('npm run test:quick runs the quick lanes, and only them; npm test runs every lane', async () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts['test:quick']).toBe('vitest run --config vitest.quick.config.ts');
    const quick = (await import('../../vitest.quick.config.js')).default.test;
    expect(quick?.include).toEqual(QUICK_LANES.flatMap((lane) => lane.include));
    expect(quick?.exclude).toEqual(OUT_OF_PROCESS);
    expect(QUICK_LANES.every((lane) => lane.exclude === OUT_OF_PROCESS)).toBe(true);
    const all = (await import('../../vitest.config.js')).default.test;
    expect(new Set(all?.include)).toEqual(new Set(LANES.flatMap((lane) => lane.include)));
  });

  it('the import reader sees what it must', () => {
    expect(forbidden('src/a/b.test.ts', 'node:child_process')).toBeDefined();
    expect(forbidden('src/a/b.test.ts', '../node.js')).toBe('src/node.ts');
    expect(forbidden('test/contract/x.test.ts', '../support/cliRun.js')).toBeDefined();
    expect(forbidden('test/contract/x.test.ts', '../support/harness.js')).toBeUndefined();
    expect(forbidden('src/a/b.test.ts', 'toolwire/testing')).toBeDefined();
    expect(importsOf('test/contract/lanes.test.ts')).toContain('node:fs');
    expect(importsOf('src/transports/http/server/requestGuards.test.ts')).toContain(
      '../../../node.js',
    );
  });
});

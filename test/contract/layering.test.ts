// The layer rules of STYLE.md §1, checked by reading every import (so nobody can quietly turn the
// ESLint zones off). Also checks that the entry files export names only (no `export *`), and that
// the CLI uses only the public API: it imports each name from the module that defines it (a
// barrel would make the bundle load the whole library for every command), but only names an entry
// file exports.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [
    ...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'/gm),
  ].map((m) => m[1] ?? m[2] ?? '');
}

function layerOf(path: string): string {
  const rel = relative(SRC, path);
  return rel.includes('/') ? (rel.split('/')[0] as string) : 'entry';
}

const ALLOWED: Record<string, string[]> = {
  jsonrpc: ['jsonrpc'],
  protocol: ['jsonrpc', 'protocol'],
  tasks: ['jsonrpc', 'protocol', 'tasks'],
  server: ['jsonrpc', 'protocol', 'tasks', 'server'],
  client: ['jsonrpc', 'protocol', 'tasks', 'client'],
  transports: ['jsonrpc', 'transports'],
  // The OAuth client authorizes the HTTP client transport through the transport's hook, and uses
  // the HTTP transports' shared helpers: it sits above them (they never import it).
  oauthClient: ['jsonrpc', 'transports', 'oauthClient'],
  stores: ['jsonrpc', 'tasks', 'transports', 'stores'],
  // The CLI: the public API only, each name from its own module (the test below checks the names).
  cli: [
    'cli',
    'entry',
    'jsonrpc',
    'protocol',
    'tasks',
    'server',
    'client',
    'transports',
    'oauthClient',
    'stores',
  ],
  // toolwire/otel: the jsonrpc errors and guards, and the types of the server and the client.
  otel: ['jsonrpc', 'protocol', 'server', 'client', 'otel'],
  // toolwire/testing: a user of the public API (the entry files), plus its own schemas.
  testing: ['testing', 'entry'],
};
/**
 * Single files a layer may import beyond its table: interfaces that stores implement, kept beside
 * the layer that uses them (like the HTTP cluster's in transports/).
 */
const ALLOWED_FILES: Record<string, string[]> = {
  stores: ['server/policy/rateLimitStore.ts', 'server/input/spentStates.ts'],
};
/**
 * Folders of src/ beyond the layer table, for files under a folder (STYLE.md §3's one sanctioned
 * edge): the 2026 transport is protocol-aware by specification, so the HTTP server transport may
 * import the era classifier and the 2026 header rules of protocol/eras/ (pure, no Node).
 */
const ALLOWED_FOLDERS: { from: string; to: string }[] = [
  { from: 'transports/http/server/', to: 'protocol/eras/' },
];

function sanctioned(from: string, to: string): boolean {
  return ALLOWED_FOLDERS.some((edge) => from.startsWith(edge.from) && to.startsWith(edge.to));
}
const RUNTIME_NEUTRAL = new Set([
  'jsonrpc',
  'protocol',
  'tasks',
  'server',
  'client',
  'otel',
  'testing',
]);

describe('layering', () => {
  const files = sources(SRC);
  it('finds the source tree', () => expect(files.length).toBeGreaterThan(30));

  for (const file of files) {
    const from = layerOf(file);
    const allowed = ALLOWED[from];
    if (!allowed) continue;
    it(`${relative(SRC, file)} imports only what its layer may`, () => {
      for (const spec of importsOf(file)) {
        if (spec.startsWith('node:')) {
          expect(RUNTIME_NEUTRAL.has(from), `${from} must not import ${spec}`).toBe(false);
          continue;
        }
        if (!spec.startsWith('.')) continue; // packages
        const path = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
        if (ALLOWED_FILES[from]?.includes(relative(SRC, path))) continue;
        if (sanctioned(relative(SRC, file), relative(SRC, path))) continue;
        const target = layerOf(path);
        expect(allowed, `${relative(SRC, file)} imports ${spec} (${target})`).toContain(target);
      }
    });
  }

  it('every folder of src/ is a layer of the table', () => {
    const layers = new Set(files.map(layerOf));
    layers.delete('entry');
    expect([...layers].filter((l) => !ALLOWED[l])).toEqual([]);
  });

  it('the sanctioned edge stays narrow: only the HTTP server, only protocol/eras/', () => {
    expect(sanctioned('transports/http/server/x.ts', 'protocol/eras/classify.ts')).toBe(true);
    expect(sanctioned('transports/http/client/x.ts', 'protocol/eras/classify.ts')).toBe(false);
    expect(sanctioned('transports/http/server/x.ts', 'protocol/versions.ts')).toBe(false);
  });

  it('entry files list named exports only', () => {
    for (const entry of ENTRY_FILES) {
      expect(readFileSync(join(SRC, entry), 'utf8')).not.toMatch(/export \*/);
    }
  });

  it('the CLI imports only names an entry file exports from the same module', () => {
    const exported = publicNames();
    const found: string[] = [];
    let checked = 0;
    for (const file of files.filter((f) => layerOf(f) === 'cli')) {
      for (const { names, spec } of namedImportsOf(file)) {
        const path = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
        const target = layerOf(path);
        if (target === 'cli' || target === 'entry') continue;
        const module = relative(SRC, path);
        for (const name of names) {
          checked++;
          if (!exported.get(module)?.has(name))
            found.push(`${relative(SRC, file)}: ${name} of ${module}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(found).toEqual([]);
  });

  it('reads the names of an import, type-only ones and aliases included', () => {
    expect(
      parseNamedImports(
        "import { a, type B, c as d } from '../x.js';\nimport type { E } from './y.js';",
      ),
    ).toEqual([
      { names: ['a', 'B', 'c'], spec: '../x.js' },
      { names: ['E'], spec: './y.js' },
    ]);
  });
});

const ENTRY_FILES = [
  'index.ts',
  'server.ts',
  'client.ts',
  'stdio.ts',
  'http.ts',
  'node.ts',
  'redis.ts',
  'otel.ts',
  'testing.ts',
];

/** `import { a, type B, c as d } from '…'`: the names as the module exports them (a, B, c). */
function parseNamedImports(text: string): { names: string[]; spec: string }[] {
  return [...text.matchAll(/^\s*import\s+(?:type\s+)?\{([^}]*)\}\s*from\s+'([^']+)'/gm)].map(
    (m) => ({
      names: (m[1] ?? '')
        .replace(/\/\/[^\n]*/g, '')
        .split(',')
        .map(
          (part) =>
            part
              .trim()
              .replace(/^type\s+/, '')
              .split(/\s+as\s+/)[0] ?? '',
        )
        .filter((name) => name !== ''),
      spec: m[2] ?? '',
    }),
  );
}

const namedImportsOf = (file: string) => parseNamedImports(readFileSync(file, 'utf8'));

/** For each module of src/, the names the entry files re-export from it (values and types). */
function publicNames(): Map<string, Set<string>> {
  const names = new Map<string, Set<string>>();
  for (const entry of ENTRY_FILES) {
    const text = readFileSync(join(SRC, entry), 'utf8');
    for (const m of text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}\s*from\s+'([^']+)'/gm)) {
      const module = relative(SRC, resolve(SRC, m[2] ?? '')).replace(/\.js$/, '.ts');
      const set = names.get(module) ?? new Set<string>();
      for (const part of (m[1] ?? '').replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '').split(','))
        set.add(
          part
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0] ?? '',
        );
      names.set(module, set);
    }
  }
  return names;
}

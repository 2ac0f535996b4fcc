/**
 * @module The package as a user gets it (issue 8): `npm pack` of this checkout, installed with
 * zod (and the optional ioredis) into a temporary project outside the repository; every entry
 * point imported with plain Node, type-checked under each TypeScript module resolution, the
 * `toolwire` bin run against a server written in that project; and an install from git, where
 * npm itself runs the `prepare` build in a clean clone.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';
import { typeCheckModes } from '../support/typeCheckModes.js';

/** One export of each entry point, checked after import. */
const ENTRY_EXPORTS: Record<string, string> = {
  '.': 'McpServer',
  './server': 'McpServer',
  './client': 'McpClient',
  './stdio': 'StdioServerTransport',
  './http': 'createHttpHandler',
  './node': 'serveHttp',
  './redis': 'RedisTaskStore',
  './otel': 'serverTelemetry',
  './testing': 'connectInMemory',
};
const specifier = (entry: string) => (entry === '.' ? 'toolwire' : `toolwire${entry.slice(1)}`);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const INSTALL = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];

interface Manifest {
  main: string;
  types: string;
  bin: Record<string, string>;
  exports: Record<string, string | { types: string; default: string }>;
}
const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as Manifest;

// npm's own variables (set when this runs under `npm test`) must not steer the nested npm runs.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')),
);

/** Runs a command to completion; fails the test with its output when it exits non-zero. */
function run(file: string, args: string[], cwd: string, timeout = 180_000): string {
  const r = spawnSync(file, args, { cwd, env, encoding: 'utf8', timeout });
  const output = `${r.stdout}${r.stderr}`;
  expect(r.status, `${file} ${args.join(' ')} in ${cwd}:\n${output}${r.error ?? ''}`).toBe(0);
  return r.stdout;
}

/** A new project folder holding only a package.json, as `npm init` would leave it. */
function newProject(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'uses-toolwire', private: true, type: 'module' }, null, 2)}\n`,
  );
  return dir;
}

/** Every file below `dir`, as paths relative to it. */
function filesBelow(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesBelow(join(dir, e.name), base) : [relative(base, join(dir, e.name))],
  );
}

/** A module importing every entry point with plain Node, printing the type of each known export. */
const IMPORT_ALL = `
const seen = {};
for (const [entry, name] of Object.entries(${JSON.stringify(
  Object.fromEntries(Object.entries(ENTRY_EXPORTS).map(([e, n]) => [specifier(e), n])),
)})) {
  seen[entry] = typeof (await import(entry))[name];
}
console.log(JSON.stringify(seen));
`;

describe('the packed package, installed into a project outside the repository', () => {
  let work = '';
  let project = '';
  let installed = '';
  let packedFiles: string[] = [];

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'toolwire-pack-'));
    // npm pack runs the package's `prepare` script (the library build, skipped when up to date).
    const packed = JSON.parse(
      run(NPM, ['pack', '--json', '--pack-destination', work], ROOT),
    ) as Array<{ filename: string; files: Array<{ path: string }> }>;
    packedFiles = packed[0]!.files.map((f) => f.path);
    project = newProject(join(work, 'project'));
    // As the README says: toolwire and zod; ioredis and @opentelemetry/api because the checks
    // below type-check and import toolwire/redis and toolwire/otel.
    run(
      NPM,
      [...INSTALL, join(work, packed[0]!.filename), 'zod', 'ioredis', '@opentelemetry/api@^1.9.0'],
      project,
    );
    installed = join(project, 'node_modules/toolwire');
  }, 300_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('ships the built library and its sources, and nothing else', () => {
    const unexpected = packedFiles.filter(
      (path) =>
        !/^(package\.json|README\.md|LICENSE)$/.test(path) &&
        // The manual the README links to (its screenshots stay in the repository).
        !/^docs\/[\w-]+\.md$/.test(path) &&
        !/^dist\/.+\.(js|js\.map|d\.ts|d\.ts\.map)$/.test(path) &&
        // The console's page: its stylesheet beside its script.
        path !== 'dist/console/app.css' &&
        !(/^src\/.+\.(ts|tsx)$/.test(path) && !path.endsWith('.test.ts')) &&
        path !== 'src/cli/console/ui/console.css' &&
        // The official schemas toolwire/testing checks messages against (each revision's and
        // the tasks extension's), with their licence.
        !/^src\/testing\/schemas\/((\d{4}-\d{2}-\d{2}|ext-tasks-draft)\.json|LICENSE|README\.md)$/.test(
          path,
        ),
    );
    expect(unexpected).toEqual([]);
    expect(packedFiles).toContain('docs/README.md');
    expect(packedFiles).toContain('src/testing/schemas/ext-tasks-draft.json');
    const targets = [
      manifest.main,
      manifest.types,
      ...Object.values(manifest.bin),
      ...Object.values(manifest.exports).flatMap((t) =>
        typeof t === 'string' ? [t] : [t.types, t.default],
      ),
    ].map((t) => t.replace(/^\.\//, ''));
    for (const target of targets) expect(packedFiles, target).toContain(target);
    // Every bundled file and every declaration comes with its map (the next test checks that the
    // maps' sources are in the package).
    for (const file of packedFiles.filter((p) => /^dist\/.+\.(js|d\.ts)$/.test(p))) {
      expect(packedFiles, file).toContain(`${file}.map`);
    }
    // Each entry point is one bundle: importing `toolwire` reads a few files, not every module.
    const modules = packedFiles.filter((p) => p.startsWith('dist/') && p.endsWith('.js'));
    const sources = packedFiles.filter((p) => p.startsWith('src/') && p.endsWith('.ts'));
    expect(modules.length).toBeLessThan(sources.length / 2);
  });

  it('brings its runtime dependencies along', () => {
    const dependencies = Object.keys(
      (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { dependencies: object })
        .dependencies,
    );
    expect(dependencies.length).toBeGreaterThan(0);
    for (const name of dependencies) {
      expect(existsSync(join(project, 'node_modules', name, 'package.json')), name).toBe(true);
    }
  });

  it('imports every entry point with plain Node (ESM, and require on this Node)', () => {
    expect(Object.keys(manifest.exports).filter((e) => e !== './package.json')).toEqual(
      Object.keys(ENTRY_EXPORTS),
    );
    const seen = JSON.parse(
      run(process.execPath, ['--input-type=module', '-e', IMPORT_ALL], project),
    ) as Record<string, string>;
    expect(Object.values(seen)).toEqual(Object.values(ENTRY_EXPORTS).map(() => 'function'));
    expect(
      run(process.execPath, ['-e', "console.log(typeof require('toolwire').McpClient)"], project),
    ).toBe('function\n');
  });

  it('has source maps whose sources are in the package', () => {
    const maps = filesBelow(installed).filter((p) => p.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const map of maps) {
      const full = join(installed, map);
      const parsed = JSON.parse(readFileSync(full, 'utf8')) as {
        sources: string[];
        sourceRoot?: string;
        sourcesContent?: Array<string | null>;
      };
      parsed.sources.forEach((source, i) => {
        if (typeof parsed.sourcesContent?.[i] === 'string') return;
        const file = resolve(dirname(full), parsed.sourceRoot ?? '', source);
        if (!file.startsWith(installed) || !existsSync(file)) missing.push(`${map}: ${source}`);
      });
      // The compiled file names its map, and that map is this one.
      const compiled = readFileSync(full.replace(/\.map$/, ''), 'utf8');
      const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(compiled)?.[1];
      if (!url || resolve(dirname(full), url) !== full) missing.push(`${map}: not referenced`);
    }
    expect(missing).toEqual([]);
  });

  it('type-checks under moduleResolution node16, nodenext, bundler and node10', () => {
    const imports = Object.entries(ENTRY_EXPORTS)
      .map(([entry, name], i) => `import { ${name} as E${i} } from '${specifier(entry)}';`)
      .join('\n');
    writeFileSync(
      join(project, 'check.ts'),
      `${imports}
import * as z from 'zod';

const server = new E0({ name: 'check', version: '1.0.0' });
server.registerTool(
  'add',
  { inputSchema: z.object({ a: z.number(), b: z.number() }) },
  ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
);
const same: InstanceType<typeof E1> = server;
// @ts-expect-error the types are real: a server name is a string
new E0({ name: 1, version: '1.0.0' });
export const entries = [same, E2, E3, E4, E5, E6, E7, E8];
`,
    );
    const modes = [
      ['node16', 'node16'],
      ['nodenext', 'nodenext'],
      ['esnext', 'bundler'],
      // TypeScript 6 deprecates node10; typesVersions still lets it find the subpath types.
      ['commonjs', 'node10'],
    ] as const;
    const results = typeCheckModes(
      project,
      [join(project, 'check.ts')],
      modes.map(([module, moduleResolution]) => ({
        name: `${module} / ${moduleResolution}`,
        options: ts.convertCompilerOptionsFromJson(
          {
            strict: true,
            module,
            moduleResolution,
            target: 'ES2022',
            types: ['node'],
            typeRoots: [`${ROOT}node_modules/@types`],
            ...(moduleResolution === 'node10' ? { ignoreDeprecations: '6.0' } : {}),
          },
          project,
        ).options,
        // toolwire's declaration files are checked in full once; the other modes check the imports.
        ...(moduleResolution === 'nodenext'
          ? { checkDeclarationsUnder: `${join(project, 'node_modules/toolwire')}/` }
          : {}),
      })),
    );
    expect(results).toEqual(
      Object.fromEntries(modes.map(([module, resolution]) => [`${module} / ${resolution}`, ''])),
    );
  }, 180_000);

  it("checks a server's messages against the schemas it ships (toolwire/testing)", () => {
    writeFileSync(
      join(project, 'wire.mjs'),
      `import { McpServer } from 'toolwire';
import { connectInMemory, WireViolation } from 'toolwire/testing';

const server = new McpServer({ name: 'wire-check', version: '1.0.0' });
server.registerTool('odd', { annotations: { readOnlyHint: true, oddHint: true } }, () => 'x');
const seen = {};
for (const revision of ['2024-11-05', '2025-06-18']) {
  const { client, close } = await connectInMemory(server, { revision, validateWire: true });
  seen[revision] = await client.listTools().then(
    (tools) => tools.map((t) => t.name).join(),
    (e) => (e instanceof WireViolation ? e.problems.map((p) => p.pointer).join() : String(e)),
  );
  await close();
}
console.log(JSON.stringify(seen));
`,
    );
    // 2024-11-05 has no annotations (toolwire leaves them out); 2025-06-18 has no oddHint.
    expect(JSON.parse(run(process.execPath, ['wire.mjs'], project))).toEqual({
      '2024-11-05': 'odd',
      '2025-06-18': '/result/tools/0/annotations',
    });
  });

  it('runs the toolwire bin: usage, and list and call against a server written here', () => {
    const bin = join(project, 'node_modules/.bin/toolwire');
    const help = spawnSync(bin, ['--help'], { cwd: project, env, encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(`${help.stdout}${help.stderr}`).toContain('toolwire serve <module>');

    writeFileSync(
      join(project, 'tools.mjs'),
      `import { McpServer } from 'toolwire';
import * as z from 'zod';

const server = new McpServer({ name: 'pack-check', version: '1.0.0' });
server.registerTool(
  'add',
  { description: 'Adds two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }) },
  ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
);
export default server;
`,
    );
    writeFileSync(
      join(project, 'server.mjs'),
      `import { StdioServerTransport } from 'toolwire/stdio';
import server from './tools.mjs';

await server.connect(new StdioServerTransport());
`,
    );
    const list = run(bin, ['list', '--', process.execPath, 'server.mjs'], project, 30_000);
    expect(list).toContain('add');
    expect(list).toContain('Adds two numbers');
    const call = run(
      bin,
      ['call', '--yes', 'add', '--arg', 'a=2', '--arg', 'b=40', '--', bin, 'serve', 'tools.mjs'],
      project,
      30_000,
    );
    expect(call.trim()).toBe('42');
  });
});

describe('installing from git', () => {
  let work = '';
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('builds in a clean clone (npm runs prepare), so the main file exists', () => {
    work = mkdtempSync(join(tmpdir(), 'toolwire-git-'));
    // A repository holding this checkout as it is now (tracked and new files, not ignored ones).
    const repo = join(work, 'repo');
    const files = run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], ROOT)
      .split('\0')
      .filter((f) => f && existsSync(join(ROOT, f)));
    for (const file of files) cpSync(join(ROOT, file), join(repo, file), { recursive: true });
    expect(existsSync(join(repo, 'dist')), 'the clone has no build').toBe(false);
    const git = ['-c', 'user.name=toolwire', '-c', 'user.email=toolwire@localhost'];
    run('git', ['init', '--quiet'], repo);
    run('git', ['add', '--all'], repo);
    run('git', [...git, 'commit', '--quiet', '--message', 'snapshot'], repo);

    const project = newProject(join(work, 'project'));
    // @opentelemetry/api: the optional peer dependency toolwire/otel imports.
    run(NPM, [...INSTALL, `git+file://${repo}`, '@opentelemetry/api@^1.9.0'], project, 300_000);
    const installed = join(project, 'node_modules/toolwire');
    for (const target of [manifest.main, manifest.types, ...Object.values(manifest.bin)]) {
      expect(existsSync(join(installed, target)), target).toBe(true);
    }
    const seen = JSON.parse(
      run(process.execPath, ['--input-type=module', '-e', IMPORT_ALL], project),
    ) as Record<string, string>;
    expect(Object.values(seen)).toEqual(Object.values(ENTRY_EXPORTS).map(() => 'function'));
  }, 360_000);
});

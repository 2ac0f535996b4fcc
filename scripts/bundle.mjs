// Bundles the library's JavaScript: one file per entry point (the package's exports, the CLI and
// the CLI's module hooks) plus shared chunks, from src/ straight to dist/, with source maps that
// point at src/. tsc writes only the declarations (tsconfig.build.json).
//
// Why: Node's ESM loader pays for every module it resolves, reads and links. The 70 modules of
// `toolwire` + `toolwire/stdio` took about 30 ms to import; bundled, about 12 ms, with 5 MiB less
// RSS, which is the start-up every stdio server pays each time a host spawns it. Splitting keeps
// each source module in exactly one output file, so every entry point shares the same classes and
// module state (`instanceof` holds across `toolwire` and `toolwire/stdio`).
import { copyFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The files esbuild starts from, relative to src/ (each becomes dist/<same path>.js). */
export const ENTRY_POINTS = [
  'index.ts',
  'server.ts',
  'client.ts',
  'stdio.ts',
  'http.ts',
  'node.ts',
  'redis.ts',
  'otel.ts',
  'testing.ts',
  'cli/main.ts',
  // Loaded by URL from cli/watch.ts (module.register), never imported.
  'cli/watchHooks.ts',
];

/**
 * Modules that find files relative to their own URL (`../cli/watchHooks.js`, `../console/app.js`,
 * `../../package.json`): they must land one folder below dist/, in dist/cli/ (an entry point) or
 * dist/chunks/ (a chunk: the CLI loads each command's code when it runs), never deeper or higher.
 */
const LOCATED_IN_CLI = ['src/cli/watch.ts', 'src/cli/version.ts', 'src/cli/consoleCommand.ts'];

/** Bundles src/ into dist/ (which tsc has already filled with declarations). */
export function bundleLibrary(root) {
  // Loaded here, not at the top: `npm start` on a fresh clone runs prepare.mjs before `npm ci`.
  const esbuild = createRequire(`${root}package.json`)('esbuild');
  const result = esbuild.buildSync({
    absWorkingDir: root,
    entryPoints: ENTRY_POINTS.map((entry) => `src/${entry}`),
    outbase: 'src',
    outdir: 'dist',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Dependencies (ajv, eventsource-parser, optional peers) stay imports, resolved by Node.
    packages: 'external',
    sourcemap: true,
    sourcesContent: false, // the maps point at src/, which the package ships
    metafile: true,
    logLevel: 'warning',
  });
  checkLocations(result.metafile);
}

/**
 * Bundles the console's page (src/cli/console/ui, Preact) into dist/console/app.js and
 * app.css: one script and one stylesheet the console serves itself, with no request anywhere
 * else (its CSP allows none). Preact is chosen for its size (about 4 KB in the bundle), its
 * escaping of every text it renders, and hooks that keep the page a few hundred lines; it is a
 * build-time dependency only.
 */
export function bundleConsole(root) {
  const esbuild = createRequire(`${root}package.json`)('esbuild');
  esbuild.buildSync({
    absWorkingDir: root,
    entryPoints: ['src/cli/console/ui/app.tsx'],
    outfile: 'dist/console/app.js',
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome120', 'firefox120', 'safari17'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    legalComments: 'none',
    sourcemap: true,
    // Self-contained: Preact's sources are not in the package.
    sourcesContent: true,
    logLevel: 'warning',
  });
  copyFileSync(`${root}src/cli/console/ui/console.css`, `${root}dist/console/app.css`);
}

/**
 * Transpiles the TypeScript files below `folders` (examples, process fixtures, benchmarks) into
 * `outdir`, one JavaScript file and source map each, in the same layout (examples/a.ts ->
 * build/examples/a.js). No type-checking (tsconfig.json's, in `npm test`, covers them), so this
 * does not wait for the library's declarations: about a tenth of a second where `tsc --noCheck`
 * took seven (isolatedModules and verbatimModuleSyntax make the two emit the same modules).
 */
export function transpileFolders(root, folders, outdir) {
  const esbuild = createRequire(`${root}package.json`)('esbuild');
  const entryPoints = folders.flatMap((folder) =>
    readdirSync(`${root}${folder}`, { recursive: true })
      .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
      .map((file) => `${folder}/${file}`),
  );
  esbuild.buildSync({
    absWorkingDir: root,
    entryPoints,
    outbase: '.',
    outdir,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: 'tsconfig.json',
    sourcemap: true,
    logLevel: 'warning',
  });
}

function checkLocations(metafile) {
  for (const input of LOCATED_IN_CLI) {
    const outputs = Object.entries(metafile.outputs)
      .filter(([, output]) => input in output.inputs)
      .map(([path]) => path);
    const misplaced = outputs.filter((path) => !/^dist\/(cli|chunks)\/[^/]+$/.test(path));
    if (outputs.length === 0 || misplaced.length > 0) {
      throw new Error(
        `${input} finds files relative to itself and must be bundled into dist/cli/ or dist/chunks/, ` +
          `but it is in ${outputs.join(', ') || 'no output'}`,
      );
    }
  }
}

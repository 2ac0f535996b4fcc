// Makes a checkout runnable: installs dependencies when they are missing or stale (npm ci, from
// the committed lock file), then builds what changed: the library (src -> dist) and the examples,
// test fixtures and benchmarks (-> build). A build is skipped when a fingerprint of its inputs and
// of its outputs (the path and content of every file) matches the one recorded after the last
// build, so `npm start` and `npm test` on an unchanged tree start at once. Content, not mtimes:
// switching branches and back, or copying a built tree, rebuilds nothing (hashing the ~10 MB
// read takes tens of milliseconds). Each build starts from an empty output folder, so a deleted
// source leaves nothing behind (tsc would rebuild every file anyway: it is not incremental here).
//
//   node scripts/prepare.mjs          install if needed, build what changed (npm start, npm test)
//   node scripts/prepare.mjs build    build everything now (npm run build)
//   node scripts/prepare.mjs lib      build the library if it changed; never installs. This is the
//                                     package's `prepare` script, which npm runs after `npm ci`,
//                                     before `npm pack` and when it installs toolwire from git.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleConsole, bundleLibrary, transpileFolders } from './bundle.mjs';
import { emitDeclarations } from './declarations.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const STAMPS = `${root}.cache/build`;
const SHARED_INPUTS = ['tsconfig.json', 'package.json', 'package-lock.json'];

/** The two builds: what each reads (files or folders under the root) and where it writes. */
export const TARGETS = {
  lib: {
    inputs: [
      'src',
      'tsconfig.build.json',
      'scripts/bundle.mjs',
      'scripts/declarations.mjs',
      ...SHARED_INPUTS,
    ],
    // Unit tests beside the code are not compiled (tsconfig.build.json excludes them).
    ignore: (path) => path.endsWith('.test.ts'),
    output: 'dist',
    // TypeScript writes the declarations (scripts/declarations.mjs); esbuild the JavaScript
    // (scripts/bundle.mjs says why).
    tsconfig: 'tsconfig.build.json',
  },
  examples: {
    // Transpiled file by file (esbuild; `npm test` type-checks them with tsconfig.json): they do
    // not read the library's types, so a change of the library leaves them up to date.
    inputs: ['examples', 'test/fixtures', 'bench', ...SHARED_INPUTS],
    ignore: () => false,
    output: 'build',
    transpile: ['examples', 'test/fixtures', 'bench'],
  },
};

/** Every file below `path` (a file or a folder, relative to the root), with its content's hash. */
function listFiles(path, ignore, into = []) {
  const full = `${root}${path}`;
  if (!existsSync(full)) return into;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort()) listFiles(`${path}/${name}`, ignore, into);
  } else if (!ignore(path)) {
    into.push(`${path}\t${createHash('sha256').update(readFileSync(full)).digest('hex')}`);
  }
  return into;
}

const digest = (lines) => createHash('sha256').update(lines.join('\n')).digest('hex');

/** The fingerprint of a target's inputs. */
function inputsOf(name) {
  const target = TARGETS[name];
  const lines = target.inputs.flatMap((path) => listFiles(path, target.ignore));
  return digest(lines);
}

const outputsOf = (name) => digest(listFiles(TARGETS[name].output, () => false));
const stampFile = (name) => `${STAMPS}/${name}.json`;

function readStamp(name) {
  try {
    return JSON.parse(readFileSync(stampFile(name), 'utf8'));
  } catch {
    return undefined;
  }
}

/** True when the target's inputs or outputs changed since its last build (or it never ran). */
export function isStale(name) {
  const stamp = readStamp(name);
  return (
    !stamp ||
    !existsSync(`${root}${TARGETS[name].output}`) ||
    stamp.inputs !== inputsOf(name) ||
    stamp.outputs !== outputsOf(name)
  );
}

/** Builds one target from an empty output folder and records its fingerprints. */
export function build(name) {
  const target = TARGETS[name];
  // Taken before compiling: a source saved during the build makes the next run build again.
  const inputs = inputsOf(name);
  const how = target.transpile ? 'esbuild' : `declarations of ${target.tsconfig}, and esbuild`;
  console.error(`[prepare] building ${target.output}/ (${how})`);
  rmSync(`${root}${target.output}`, { recursive: true, force: true });
  if (target.transpile) {
    transpileFolders(root, target.transpile, target.output);
  } else {
    emitDeclarations(root, target.tsconfig);
    bundleLibrary(root);
    bundleConsole(root);
  }
  mkdirSync(STAMPS, { recursive: true });
  writeFileSync(stampFile(name), `${JSON.stringify({ inputs, outputs: outputsOf(name) })}\n`);
}

/** Builds each named target whose inputs or outputs changed; returns the ones it built. */
export function buildChanged(names = ['lib', 'examples']) {
  const built = [];
  for (const name of names) {
    if (!isStale(name)) continue;
    build(name);
    built.push(name);
  }
  if (built.length === 0) console.error(`[prepare] ${names.join(' and ')} up to date`);
  return built;
}

/**
 * Installs the dependencies when the lock file is newer than the installed tree. Without running
 * install scripts: `npm ci` would run this package's `prepare` (the library build) before
 * returning, and the callers build what changed right after, beside whatever they start once the
 * dependencies are there (`npm test` starts Prettier). The one dependency with an install script,
 * esbuild, only swaps its command-line shim for the binary; its JavaScript API, which the build and
 * tsx use, does not need that.
 */
export function installIfStale() {
  const marker = `${root}node_modules/.package-lock.json`;
  const stale =
    !existsSync(marker) || statSync(marker).mtimeMs < statSync(`${root}package-lock.json`).mtimeMs;
  if (!stale) return false;
  console.error('[prepare] installing dependencies (npm ci)');
  execFileSync(npm, ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: root,
    stdio: 'inherit',
  });
  return true;
}

/** `npm start` and `npm test`: dependencies, then whatever changed. */
export function prepare() {
  installIfStale();
  buildChanged();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const mode = process.argv[2];
  try {
    if (mode === 'build') ['lib', 'examples'].forEach(build);
    else if (mode === 'lib') buildChanged(['lib']);
    else if (mode === undefined) prepare();
    else throw new Error(`unknown mode ${mode}: use build, lib or nothing`);
  } catch (error) {
    if (typeof error?.status !== 'number') console.error(`[prepare] ${error.message}`);
    process.exitCode = typeof error?.status === 'number' ? error.status : 1;
  }
}

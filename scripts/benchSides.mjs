// The two sides of `npm run bench -- --compare <base> [<other>]`: each a build of the library
// (a git revision of this repository, archived into .bench-out/compare/rev-<sha>/ and built
// there once, or a checkout directory given by path, whose library is built when stale), and a
// side folder in .bench-out/compare/side-<n>/ holding this checkout's compiled bench servers
// and a node_modules/ of symbolic links: this checkout's packages, with `toolwire` pointing at
// the side's build. Both sides so run the same server code against their own library, and
// nothing is written into another checkout but its own build output (dist/).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { basename, resolve } from 'node:path';

const git = (root, args) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' }).trim();

/** Builds the library of `dir` (a toolwire checkout) when its sources changed since its last build. */
function buildLibrary(dir) {
  const prepare = `${dir}/scripts/prepare.mjs`;
  if (!existsSync(prepare)) throw new Error(`${dir} has no scripts/prepare.mjs to build it with`);
  execFileSync(process.execPath, [prepare, 'lib'], { cwd: dir, stdio: 'inherit' });
}

/** `rev` archived from this repository and built, in .bench-out/compare/rev-<sha>/. */
function buildRevision(root, rev) {
  const sha = git(root, ['rev-parse', '--verify', `${rev}^{commit}`]);
  const dir = `${root}.bench-out/compare/rev-${sha.slice(0, 12)}`;
  if (!existsSync(`${dir}/package.json`)) {
    console.error(`[bench] archiving ${rev} (${sha.slice(0, 12)}) into ${dir}`);
    mkdirSync(dir, { recursive: true });
    const tar = `${dir}.tar`;
    execFileSync('git', ['-C', root, 'archive', '--format=tar', '-o', tar, sha]);
    execFileSync('tar', ['-xf', tar, '-C', dir]);
    rmSync(tar);
    // Its dependencies are this checkout's (the lock files of the two rarely differ).
    symlinkSync(`${root}node_modules`, `${dir}/node_modules`, 'dir');
  }
  buildLibrary(dir);
  return { dir, label: `${rev === sha.slice(0, rev.length) ? '' : `${rev} `}${sha.slice(0, 8)}` };
}

/** A checkout directory, its library built when stale; labelled by its folder and commit. */
function useDirectory(root, path) {
  const dir = resolve(path);
  if (!existsSync(`${dir}/package.json`)) throw new Error(`${dir} is not a toolwire checkout`);
  if (dir !== resolve(root)) buildLibrary(dir);
  let commit = '';
  try {
    commit = ` ${git(dir, ['rev-parse', '--short=8', 'HEAD'])}`;
    if (git(dir, ['status', '--porcelain', '--untracked-files=no', '--', 'src']) !== '')
      commit += '+changes';
  } catch {
    // Not a git checkout: the folder name says enough.
  }
  return { dir, label: `${basename(dir)}${commit}` };
}

/** A revision or a directory, as a built library: `{ dir, label }`. */
export function resolveBuild(root, spec) {
  return existsSync(spec) && statSync(spec).isDirectory()
    ? useDirectory(root, spec)
    : buildRevision(root, spec);
}

/**
 * Side `n`: this checkout's compiled bench servers (build/bench/servers) and a node_modules/
 * whose `toolwire` is `build.dir`. Returns the side folder.
 */
export function prepareSide(root, n, build) {
  const side = `${root}.bench-out/compare/side-${n}`;
  rmSync(side, { recursive: true, force: true });
  mkdirSync(`${side}/node_modules`, { recursive: true });
  cpSync(`${root}build/bench/servers`, `${side}/servers`, { recursive: true });
  for (const name of readdirSync(`${root}node_modules`)) {
    if (name.startsWith('.') || name === 'toolwire') continue;
    symlinkSync(`${root}node_modules/${name}`, `${side}/node_modules/${name}`);
  }
  symlinkSync(build.dir, `${side}/node_modules/toolwire`, 'dir');
  return side;
}

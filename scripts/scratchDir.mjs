// Where `npm test` puts the tests' temporary files (TMPDIR of everything it starts): on Linux, a
// folder in /dev/shm (RAM) when nothing else was asked for. The suite writes and deletes a lot:
// temporary projects with their node_modules (the packed package, the quick start, an install
// from git: ~200 MB each), browser profiles, credentials files. On a disk mounted with `discard`
// every deletion also trims the disk; in RAM the install from git took 13 CPU-s of kernel time
// instead of 21, and the whole run less. A TMPDIR set by the person is kept as it is.
import { mkdtempSync, readdirSync, rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';

const RAM = '/dev/shm';
const PREFIX = 'toolwire-test-';
/** Room the suite needs at its peak (several temporary projects at once), with a margin. */
const NEEDED_BYTES = 4 * 1024 ** 3;

/** True when `pid` is a running process. */
function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error?.code === 'EPERM';
  }
}

/**
 * A new scratch folder for this run, or undefined (TMPDIR already set, not Linux, no /dev/shm,
 * or too little room there). Folders left by runs that were killed are removed first.
 */
export function createScratchDir(env = process.env) {
  if (env.TMPDIR || process.platform !== 'linux') return undefined;
  try {
    const fs = statfsSync(RAM);
    if (fs.bavail * fs.bsize < NEEDED_BYTES) return undefined;
    for (const name of readdirSync(RAM)) {
      const pid = Number(name.slice(PREFIX.length).split('-')[0]);
      if (name.startsWith(PREFIX) && Number.isInteger(pid) && !running(pid))
        rmSync(join(RAM, name), { recursive: true, force: true });
    }
    return mkdtempSync(join(RAM, `${PREFIX}${process.pid}-`));
  } catch {
    return undefined; // no usable /dev/shm: the system's temporary folder, as without it
  }
}

/** Removes a folder createScratchDir made. */
export function removeScratchDir(dir) {
  if (dir) rmSync(dir, { recursive: true, force: true });
}

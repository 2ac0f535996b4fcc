/**
 * @module Opening a file that holds what the person did (an audit trail, the console's history:
 * tool arguments can be private) for appending: created readable by its owner only, and refused
 * when it already exists in a shape others could read or change: readable or writable by group
 * or others, owned by someone else, or not a regular file. toolwire does not change the mode of a
 * file it did not create: the person decides (`chmod 600`), or names another file.
 */
import { closeSync, fstatSync, openSync } from 'node:fs';

/** Why a file cannot hold a private trail; undefined when it can. */
function unsafe(fd: number): string | undefined {
  const stat = fstatSync(fd);
  if (!stat.isFile()) return 'it is not a regular file';
  // Windows has no owner ids or mode bits to check; its ACLs are the folder's.
  if (process.platform === 'win32') return undefined;
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid)
    return `it belongs to another user (uid ${String(stat.uid)})`;
  const shared = stat.mode & 0o077;
  if (shared !== 0)
    return `others can ${shared & 0o022 ? 'write' : 'read'} it (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')})`;
  return undefined;
}

/**
 * Opens `path` for appending (`a`, or `a+` to read it too), creating it with mode 0600. Throws an
 * Error saying why when the file is not one only its owner can read and write.
 */
export function openPrivateAppend(path: string, flags: 'a' | 'a+' = 'a'): number {
  const fd = openSync(path, flags, 0o600);
  const why = unsafe(fd);
  if (why === undefined) return fd;
  closeSync(fd);
  throw new Error(
    `${path} could expose what it records: ${why}; run chmod 600 on it, or name another file`,
  );
}

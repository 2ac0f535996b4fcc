/**
 * @module The credentials file on disk: where it lives by default, reading it with its
 * permissions checked (a file others can read or replace is refused, as ssh refuses such a key),
 * and replacing it atomically (a temporary file written with mode 0600, synced, renamed over the
 * old one, and the directory synced), so a crash or a concurrent writer never leaves half a file.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';

/** Why the credentials file cannot be used. */
export type CredentialsFileProblem =
  | 'corrupt'
  | 'locked'
  | 'newer-version'
  | 'too-large'
  | 'insecure-permissions'
  | 'not-owned'
  | 'unreadable'
  | 'unwritable';

/** The credentials file cannot be read or written; the message names the file and the fix. */
export class CredentialsFileError extends Error {
  override readonly name = 'CredentialsFileError';

  constructor(
    readonly path: string,
    readonly problem: CredentialsFileProblem,
    options: { message: string; cause?: unknown },
  ) {
    super(options.message, { cause: options.cause });
  }
}

/** Largest credentials file read (a token is a few KiB: this holds thousands). */
export const MAX_CREDENTIALS_BYTES: number = 8 * 1024 * 1024;

/** Where the file's location comes from (all default to this process's). */
export interface CredentialsPathContext {
  env?: Readonly<Record<string, string | undefined>>;
  platform?: string;
  home?: string;
}

/**
 * The default credentials file: `%APPDATA%\toolwire\credentials.json` on Windows, else
 * `$XDG_CONFIG_HOME/toolwire/credentials.json` (when absolute, as the XDG spec requires), else
 * `~/.config/toolwire/credentials.json`.
 */
export function defaultCredentialsPath(context: CredentialsPathContext = {}): string {
  const env = context.env ?? process.env;
  const platform = context.platform ?? process.platform;
  const home = context.home ?? homedir();
  if (platform === 'win32') {
    const appData = env['APPDATA'];
    const base = appData && isAbsolute(appData) ? appData : join(home, 'AppData', 'Roaming');
    return join(base, 'toolwire', 'credentials.json');
  }
  const xdg = env['XDG_CONFIG_HOME'];
  const base = xdg && isAbsolute(xdg) ? xdg : join(home, '.config');
  return join(base, 'toolwire', 'credentials.json');
}

/** POSIX permissions are meaningful (Windows protects %APPDATA% with per-user ACLs instead). */
const POSIX = process.platform !== 'win32';

function octal(mode: number): string {
  return (mode & 0o777).toString(8).padStart(3, '0');
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Refuses a directory others may write in: they could replace the file by renaming theirs over it.
 */
async function checkDirectory(path: string): Promise<void> {
  if (!POSIX) return;
  const dir = dirname(path);
  let info;
  try {
    info = await stat(dir);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return;
    throw new CredentialsFileError(path, 'unreadable', {
      message: `cannot read ${dir}: ${reason(error)}`,
      cause: error,
    });
  }
  if ((info.mode & 0o022) !== 0)
    throw new CredentialsFileError(path, 'insecure-permissions', {
      message: `the directory of the credentials file, ${dir}, is writable by other users (mode ${octal(info.mode)}), who could replace the file: make it private with chmod 700 ${dir}`,
    });
}

/**
 * Reads the file's text, or undefined when there is none. Refuses a file readable or writable by
 * others (its tokens may have been read: chmod it, then log out and in again) or owned by another
 * user (anyone could have written it).
 */
export async function readCredentialsText(path: string): Promise<string | undefined> {
  await checkDirectory(path);
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return undefined;
    throw new CredentialsFileError(path, 'unreadable', {
      message: `cannot read ${path}: ${reason(error)}`,
      cause: error,
    });
  }
  try {
    // Checked on the open file, not the path: the file read is the file checked.
    const info = await handle.stat();
    if (!info.isFile())
      throw new CredentialsFileError(path, 'unreadable', {
        message: `${path} is not a regular file`,
      });
    const uid = process.getuid?.();
    if (POSIX && uid !== undefined && info.uid !== uid)
      throw new CredentialsFileError(path, 'not-owned', {
        message: `the credentials file ${path} belongs to another user (uid ${info.uid}): remove it, or point XDG_CONFIG_HOME elsewhere`,
      });
    if (POSIX && (info.mode & 0o077) !== 0)
      throw new CredentialsFileError(path, 'insecure-permissions', {
        message: `the credentials file ${path} is accessible to other users (mode ${octal(info.mode)}): make it private with chmod 600 ${path}, then consider toolwire logout and login again, as its tokens may have been read`,
      });
    if (info.size > MAX_CREDENTIALS_BYTES)
      throw new CredentialsFileError(path, 'too-large', {
        message: `the credentials file ${path} is larger than ${MAX_CREDENTIALS_BYTES} bytes: it is not one toolwire wrote; move it away`,
      });
    return await handle.readFile('utf8');
  } catch (error) {
    if (error instanceof CredentialsFileError) throw error;
    throw new CredentialsFileError(path, 'unreadable', {
      message: `cannot read ${path}: ${reason(error)}`,
      cause: error,
    });
  } finally {
    await handle.close();
  }
}

/** Makes the directory private (0700) when creating it. */
async function ensureDirectory(path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
}

/**
 * Creates the file's directory (0700) if needed, and refuses one others may write in (for the
 * lock file beside the credentials file).
 */
export async function prepareCredentialsDirectory(path: string): Promise<void> {
  try {
    await ensureDirectory(path);
  } catch (error) {
    throw new CredentialsFileError(path, 'unwritable', {
      message: `cannot create the directory of ${path}: ${reason(error)}`,
      cause: error,
    });
  }
  await checkDirectory(path);
}

/** Flushes the directory entry of the rename (not possible everywhere, e.g. on Windows). */
async function syncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Best effort: the rename is atomic either way; only its durability is at stake.
  } finally {
    await handle?.close();
  }
}

/**
 * Replaces the file with `text` atomically: readers see the old file or the new one, never a
 * part. Two processes writing at once: the last rename wins (the file stays whole).
 */
export async function writeCredentialsText(path: string, text: string): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}`);
  try {
    await ensureDirectory(path);
    await checkDirectory(path);
    // `wx`: a fresh file of ours, never one planted at that name; 0600 from its first byte.
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    if (error instanceof CredentialsFileError) throw error;
    throw new CredentialsFileError(path, 'unwritable', {
      message: `cannot write ${path}: ${reason(error)}`,
      cause: error,
    });
  }
  await syncDirectory(dir);
}

/**
 * @module The lock processes sharing a credentials file take to change it, and to refresh its
 * tokens: a lock file beside it (`credentials.json.lock`, 0600), created exclusively and holding
 * the holder's process id and host. Its holder renews its time every few seconds;
 * a lock not renewed for `staleMs` (its holder died or hangs), or whose holder is a process of
 * this machine that no longer runs, is taken over. A waiter polls for at most `waitMs`, then
 * fails with a {@link CredentialsFileError} (`locked`) naming the lock file. The lock is
 * re-entrant within the asynchronous work of its holder (a refresh that writes the tokens it got
 * does not wait for itself). No dependency: `open(..., 'wx')` is atomic on every local file
 * system Node runs on.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { link, open, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { CredentialsFileError, prepareCredentialsDirectory } from './credentialsFile.js';

/** How long a lock is waited for, and when a lock not renewed is taken over. */
export interface CredentialsLockOptions {
  /** Longest wait for the lock before failing with `locked`. Default 60 000 ms. */
  readonly waitMs?: number;
  /** A lock not renewed for this long is taken over. Default 20 000 ms (renewed every 5 s). */
  readonly staleMs?: number;
  readonly signal?: AbortSignal | undefined;
}

const DEFAULT_WAIT_MS = 60_000;
const DEFAULT_STALE_MS = 20_000;

/** The locks the current asynchronous work holds (by lock file), and its nested changes' queue. */
interface Holding {
  readonly paths: ReadonlySet<string>;
  queue: Promise<unknown>;
}
const holding = new AsyncLocalStorage<Holding>();

/** What a lock file says about its holder. */
interface Holder {
  readonly ino: number;
  readonly mtimeMs: number;
  readonly pid: number | undefined;
  readonly host: string | undefined;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The lock file's holder, or undefined when there is no lock file. */
async function readHolder(path: string): Promise<Holder | undefined> {
  let info;
  let text = '';
  try {
    info = await stat(path);
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return undefined;
    if (!info) throw error;
  }
  let said: { pid?: unknown; host?: unknown } = {};
  try {
    said = JSON.parse(text) as typeof said;
  } catch {
    // Being written, or not one of ours: judged by its time alone.
  }
  return {
    ino: info.ino,
    mtimeMs: info.mtimeMs,
    pid: typeof said.pid === 'number' ? said.pid : undefined,
    host: typeof said.host === 'string' ? said.host : undefined,
  };
}

/** Whether a process of this machine runs (one of another user's counts as running). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return codeOf(error) === 'EPERM';
  }
}

function stale(holder: Holder, staleMs: number): boolean {
  if (Date.now() - holder.mtimeMs > staleMs) return true;
  return holder.host === hostname() && holder.pid !== undefined && !running(holder.pid);
}

/**
 * Removes a stale lock: moves it aside, and removes it if it is the one judged stale; one that
 * another process took over and locked anew meanwhile is put back.
 */
async function takeOver(path: string, judged: Holder): Promise<void> {
  const aside = `${path}.${randomBytes(6).toString('hex')}.stale`;
  try {
    await rename(path, aside);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return;
    throw error;
  }
  const moved = await stat(aside).catch(() => undefined);
  if (moved && moved.ino !== judged.ino) await link(aside, path).catch(() => {});
  await rm(aside, { force: true });
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/** Creates the lock file; undefined when another holds it. */
async function tryCreate(lock: string, credentials: string): Promise<FileHandle | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(lock, 'wx', 0o600);
  } catch (error) {
    if (codeOf(error) === 'EEXIST') return undefined;
    throw new CredentialsFileError(credentials, 'unwritable', {
      message: `cannot create the lock file ${lock}: ${(error as Error).message}`,
      cause: error,
    });
  }
  try {
    await handle.writeFile(JSON.stringify({ pid: process.pid, host: hostname() }));
    return handle;
  } catch (error) {
    await handle.close().catch(() => {});
    await rm(lock, { force: true });
    throw new CredentialsFileError(credentials, 'unwritable', {
      message: `cannot write the lock file ${lock}: ${(error as Error).message}`,
      cause: error,
    });
  }
}

/** Takes the lock of `credentials` (waiting, bounded); resolves with its release. */
async function acquire(
  credentials: string,
  options: CredentialsLockOptions,
): Promise<() => Promise<void>> {
  const lock = `${credentials}.lock`;
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  await prepareCredentialsDirectory(credentials);
  const deadline = Date.now() + waitMs;
  let holder: Holder | undefined;
  for (let attempt = 0; ; attempt++) {
    options.signal?.throwIfAborted();
    const handle = await tryCreate(lock, credentials);
    if (handle) return holdWith(handle, lock, staleMs);
    holder = await readHolder(lock);
    if (holder && stale(holder, staleMs)) {
      await takeOver(lock, holder);
      continue;
    }
    if (Date.now() >= deadline)
      throw new CredentialsFileError(credentials, 'locked', {
        message:
          `the credentials file ${credentials} stayed locked for ${waitMs} ms` +
          (holder?.pid !== undefined ? ` by process ${holder.pid}` : '') +
          `; if no toolwire is running, remove ${lock}`,
      });
    await sleep(Math.min(10 * 2 ** attempt, 100) + Math.random() * 20, options.signal);
  }
}

/** Keeps a created lock renewed until its release, which removes it if it is still this one. */
function holdWith(handle: FileHandle, lock: string, staleMs: number): () => Promise<void> {
  const renew = setInterval(
    () => {
      const now = new Date();
      handle.utimes(now, now).catch(() => {});
    },
    Math.max(staleMs / 4, 10),
  );
  renew.unref();
  return async () => {
    clearInterval(renew);
    const mine = await handle.stat().catch(() => undefined);
    await handle.close().catch(() => {});
    const there = await stat(lock).catch(() => undefined);
    if (mine && there && mine.ino === there.ino) await rm(lock, { force: true });
  };
}

/**
 * Runs `task` holding the lock of the credentials file at `credentials` (across processes and
 * within this one); nested calls from `task` run at once, one after another.
 */
export async function withCredentialsLock<T>(
  credentials: string,
  task: () => Promise<T>,
  options: CredentialsLockOptions = {},
): Promise<T> {
  const current = holding.getStore();
  if (current?.paths.has(credentials)) {
    const paths = current.paths;
    const run = current.queue.then(() => holding.run({ paths, queue: Promise.resolve() }, task));
    current.queue = run.catch(() => {});
    return run;
  }
  const release = await acquire(credentials, options);
  try {
    const paths = new Set(current?.paths ?? []).add(credentials);
    return await holding.run({ paths, queue: Promise.resolve() }, task);
  } finally {
    await release();
  }
}

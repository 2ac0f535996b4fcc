import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CredentialsFileError } from './credentialsFile.js';
import { withCredentialsLock } from './credentialsLock.js';
import { FileOAuthStore } from './fileStore.js';

let dir = '';
let file = '';
let lock = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolwire-lock-'));
  file = join(dir, 'toolwire', 'credentials.json');
  lock = `${file}.lock`;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A lock file as another holder left it. */
function planted(holder: { pid: number; host?: string }, ageMs = 0): void {
  mkdirSync(join(dir, 'toolwire'), { recursive: true, mode: 0o700 });
  writeFileSync(lock, JSON.stringify({ host: hostname(), ...holder }), { mode: 0o600 });
  const then = new Date(Date.now() - ageMs);
  utimesSync(lock, then, then);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('withCredentialsLock', () => {
  it('runs one holder at a time, across store instances, and removes its lock file', async () => {
    const a = new FileOAuthStore({ path: file });
    const b = new FileOAuthStore({ path: file });
    const events: string[] = [];
    const task = (name: string) => async () => {
      events.push(`${name} in`);
      expect(statSync(lock).mode & 0o777).toBe(0o600);
      await pause(30);
      events.push(`${name} out`);
    };
    await Promise.all([a.exclusive(task('a')), b.exclusive(task('b'))]);
    expect(events).toHaveLength(4);
    expect(events[0]?.slice(0, 1)).toBe(events[1]?.slice(0, 1));
    expect(existsSync(lock)).toBe(false);
  });

  it('lets the holder change the file from inside (no waiting for itself)', async () => {
    const store = new FileOAuthStore({ path: file, lock: { waitMs: 500 } });
    const key = { issuer: 'https://as.example', resource: 'https://mcp.example/mcp' };
    await store.exclusive(async () => {
      await Promise.all([
        store.setTokens(key, { accessToken: 'a', tokenType: 'Bearer' }),
        store.setIssuerOf(key.resource, key.issuer),
      ]);
      await store.exclusive(() =>
        store.setClient(key.issuer, {
          clientId: 'c',
          tokenEndpointAuthMethod: 'none',
          registration: 'dynamic',
        }),
      );
    });
    expect(await store.getTokens(key)).toEqual({ accessToken: 'a', tokenType: 'Bearer' });
    expect(await store.getIssuerOf(key.resource)).toBe(key.issuer);
    expect(await store.getClient(key.issuer)).toBeDefined();
  });

  it('takes over the lock of a process that no longer runs, at once', async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    if (gone === undefined) throw new Error('no child pid');
    planted({ pid: gone });
    const started = Date.now();
    expect(await withCredentialsLock(file, async () => 'ran', { waitMs: 5_000 })).toBe('ran');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('takes over a lock not renewed for staleMs', async () => {
    planted({ pid: process.pid }, 60_000);
    expect(await withCredentialsLock(file, async () => 'ran', { waitMs: 5_000 })).toBe('ran');
  });

  it('waits a bounded time for a live holder, then fails naming the lock file', async () => {
    planted({ pid: process.pid });
    const started = Date.now();
    const error = await withCredentialsLock(file, async () => 'ran', { waitMs: 300 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CredentialsFileError);
    expect(error).toMatchObject({ problem: 'locked', path: file });
    expect((error as Error).message).toContain(`by process ${process.pid}`);
    expect((error as Error).message).toContain(`remove ${lock}`);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(existsSync(lock)).toBe(true);
  });

  it('stops waiting when its signal aborts', async () => {
    planted({ pid: process.pid });
    const signal = AbortSignal.timeout(100);
    await expect(
      withCredentialsLock(file, async () => 'ran', { waitMs: 10_000, signal }),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('a change that writes nothing takes no lock and creates nothing', async () => {
    const store = new FileOAuthStore({ path: file });
    await store.deleteTokens({ issuer: 'https://as.example', resource: 'https://x.example/' });
    expect(await store.forgetResource('https://x.example/')).toEqual({ issuers: [] });
    expect(existsSync(join(dir, 'toolwire'))).toBe(false);
  });
});

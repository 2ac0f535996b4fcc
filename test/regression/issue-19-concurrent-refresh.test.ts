/**
 * Issue 19: several CLI processes refreshing at once used one refresh token several times; an
 * authorization server that rotates refresh tokens (oidc-provider does, for a public client)
 * answers a reuse by revoking the grant, and the person was logged out (5 of 5 runs: four
 * `toolwire list` at once after expiry, then `login_required`). Refreshing now happens under the
 * credentials file's lock, reading the tokens again first: one process refreshes, the others
 * use what it stored. And every change of the file is made under that lock on a fresh read, so
 * processes changing different entries at once keep each other's changes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileOAuthStore } from '../../src/node.js';
import { signIn, startAuthServer, type TestAuthServer } from '../support/authServer.js';
import { serveProtected, startToolwire, until } from '../support/cliRun.js';
import { ROOT } from '../support/paths.js';

let auth: TestAuthServer;
let url = '';
const children: Array<ReturnType<typeof startToolwire>> = [];
const homes: string[] = [];
const credentials = (home: string) => join(home, 'toolwire', 'credentials.json');

function newHome(): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolwire-issue19-'));
  homes.push(dir);
  return dir;
}

beforeAll(async () => {
  auth = await startAuthServer();
  const served = await serveProtected(auth);
  url = served.url;
  children.push(served.child);
}, 30_000);

afterAll(async () => {
  for (const child of children) {
    child.kill('SIGTERM');
    await child.exited;
  }
  await auth?.close();
  for (const dir of homes) rmSync(dir, { recursive: true, force: true });
});

/** `toolwire login` (dynamic registration: a public client, whose refresh tokens rotate). */
async function login(home: string): Promise<void> {
  const child = startToolwire(['login', url, '--no-browser', '--allow-loopback-http'], {
    XDG_CONFIG_HOME: home,
  });
  await until(
    () => /^ {2}http\S+$/m.test(child.output().stderr) || child.exitCode !== null,
    15_000,
    'login to print the authorization URL',
  );
  const shown = /^ {2}(http\S+)$/m.exec(child.output().stderr)?.[1];
  if (!shown) throw new Error(`no authorization URL: ${child.output().stderr}`);
  await fetch(await signIn(auth.issuer, shown, 'alice'));
  const run = await child.exited;
  if (run.code !== 0) throw new Error(`login failed: ${run.stderr}`);
}

const list = (home: string) =>
  startToolwire(['list', url, '--allow-loopback-http'], { XDG_CONFIG_HOME: home }).exited;

describe('issue 19: processes sharing the credentials file', () => {
  it('four list at once after expiry all succeed, refreshing once; a fifth afterwards too', async () => {
    const home = newHome();
    await login(home);
    const store = new FileOAuthStore({ path: credentials(home) });
    const key = { issuer: auth.issuer, resource: url };
    const before = await store.getTokens(key);
    if (!before?.refreshToken) throw new Error('no refresh token stored');
    await store.setTokens(key, { ...before, expiresAt: Date.now() + 1_000 });

    const started = Date.now();
    const runs = await Promise.all([list(home), list(home), list(home), list(home)]);
    const took = Date.now() - started;
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('slow');
    }
    const after = await store.getTokens(key);
    // One refresh: new tokens, with the rotated refresh token.
    expect(after?.accessToken).not.toBe(before.accessToken);
    expect(after?.refreshToken).not.toBe(before.refreshToken);
    expect(after?.expiresAt).toBeGreaterThan(Date.now() + 60_000);

    const fifth = await list(home);
    expect(fifth.code, fifth.stderr).toBe(0);
    // And the grant still stands: the refresh token kept is one the server takes.
    await store.setTokens(key, { ...(after ?? before), expiresAt: Date.now() + 1_000 });
    const sixth = await list(home);
    expect(sixth.code, sixth.stderr).toBe(0);
    expect((await store.getTokens(key))?.refreshToken).not.toBe(after?.refreshToken);
    console.log(`issue 19: four concurrent list with one refresh took ${took} ms`);
  }, 90_000);

  it('processes writing different entries at once keep every one of them', async () => {
    const home = newHome();
    const file = credentials(home);
    const writers = 4;
    const each = 15;
    // Each process stores tokens for its own resources, as logins to different servers do.
    const script = `
      const { FileOAuthStore } = await import(${JSON.stringify(`${ROOT}dist/node.js`)});
      const store = new FileOAuthStore({ path: ${JSON.stringify(file)} });
      const [writer, each] = process.argv.slice(1).map(Number);
      for (let i = 0; i < each; i++) {
        const resource = 'https://mcp.example/' + writer + '/' + i;
        await store.setIssuerOf(resource, 'https://as.example');
        await store.setTokens({ issuer: 'https://as.example', resource }, {
          accessToken: 'a' + writer + '-' + i, tokenType: 'Bearer',
        });
      }`;
    const codes = await Promise.all(
      Array.from(
        { length: writers },
        (_, writer) =>
          new Promise<number | null>((resolve) => {
            const child = spawn(
              process.execPath,
              ['--input-type=module', '-e', script, String(writer), String(each)],
              { stdio: 'inherit', timeout: 60_000 },
            );
            child.once('close', resolve);
          }),
      ),
    );
    expect(codes).toEqual(Array<number>(writers).fill(0));
    const store = new FileOAuthStore({ path: file });
    expect((await store.entries()).length).toBe(writers * each);
    expect((await store.resources()).length).toBe(writers * each);
  }, 90_000);
});

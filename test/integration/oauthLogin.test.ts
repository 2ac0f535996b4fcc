/**
 * Issue 12: `toolwire login`, `list`, `call` and `logout` end to end, as a user runs them: a
 * toolwire server protected by a real authorization server (oidc-provider on 127.0.0.1), the
 * login's authorization URL read from its stderr and signed in to by a scripted user, the
 * redirect delivered to login's loopback listener, the tokens kept in a 0600 file and used (and
 * refreshed) by list and call, then forgotten by logout.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileOAuthStore } from '../../src/node.js';
import { signIn, startAuthServer, type TestAuthServer } from '../support/authServer.js';
import { CLI_SERVER, startToolwire, until } from '../support/cliRun.js';
import { freePort } from '../support/redis.js';

let auth: TestAuthServer;
let server: ReturnType<typeof startToolwire>;
let url = '';
let home = '';
const env = () => ({ XDG_CONFIG_HOME: home });
const credentials = () => join(home, 'toolwire', 'credentials.json');

beforeAll(async () => {
  auth = await startAuthServer();
  home = mkdtempSync(join(tmpdir(), 'toolwire-login-'));
  const port = await freePort();
  url = `http://127.0.0.1:${port}/mcp`;
  server = startToolwire([
    ...['serve', CLI_SERVER, '--http', String(port)],
    ...['--auth-jwks', auth.jwksUri, '--auth-issuer', auth.issuer, '--auth-audience', url],
    ...['--auth-scope', 'mcp:tools', '--auth-allow-loopback-http'],
  ]);
  await until(
    () => server.output().stderr.includes(url) || server.exitCode !== null,
    15_000,
    'serve to listen',
  );
  if (server.exitCode !== null) throw new Error(`serve exited: ${server.output().stderr}`);
}, 30_000);

afterAll(async () => {
  server?.kill('SIGTERM');
  await server?.exited;
  await auth?.close();
  rmSync(home, { recursive: true, force: true });
});

/** Runs `toolwire login` and plays the user: signs in at the URL it prints, as `alice`. */
async function login(...extra: string[]) {
  const child = startToolwire(
    ['login', url, '--no-browser', '--allow-loopback-http', ...extra],
    env(),
  );
  await until(
    () => /^ {2}http\S+$/m.test(child.output().stderr) || child.exitCode !== null,
    15_000,
    'login to print the authorization URL',
  );
  const shown = /^ {2}(http\S+)$/m.exec(child.output().stderr)?.[1];
  if (!shown) throw new Error(`no authorization URL: ${child.output().stderr}`);
  const back = await signIn(auth.issuer, shown, 'alice');
  await fetch(back); // the browser follows the redirect to login's listener
  return { run: await child.exited, shown: new URL(shown) };
}

const list = (...extra: string[]) =>
  startToolwire(['list', url, '--allow-loopback-http', ...extra], env()).exited;

describe('toolwire login, list, call, logout against a protected server', () => {
  it('before login, list fails with the command that fixes it, and creates no file', async () => {
    const run = await list();
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`run toolwire login ${url}`);
    expect(existsSync(credentials())).toBe(false);
    const json = await list('--json-output');
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: { kind: 'authorization', reason: 'login_required', url },
    });
  });

  it('logs in (dynamic registration, PKCE, resource), and list and call use the tokens', async () => {
    const { run, shown } = await login();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Logged in to ${url} (authorization server ${auth.issuer}`);
    expect(shown.searchParams.get('resource')).toBe(url);
    expect(shown.searchParams.get('code_challenge_method')).toBe('S256');
    expect(statSync(credentials()).mode & 0o777).toBe(0o600);

    const listed = await list();
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('slow');
    const called = await startToolwire(
      ['call', '--yes', 'big', '--arg', 'bytes=3', url, '--allow-loopback-http', '--json-output'],
      env(),
    ).exited;
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout)).toMatchObject({ content: [{ type: 'text', text: 'xxx' }] });
  }, 60_000);

  it('refreshes tokens about to expire, without the user', async () => {
    const store = new FileOAuthStore({ path: credentials() });
    const key = { issuer: auth.issuer, resource: url };
    const before = await store.getTokens(key);
    expect(before?.refreshToken).toEqual(expect.any(String));
    await store.setTokens(key, { ...before!, expiresAt: Date.now() + 1_000 });
    const listed = await list();
    expect(listed.code, listed.stderr).toBe(0);
    const after = await store.getTokens(key);
    expect(after?.accessToken).not.toBe(before?.accessToken);
    expect(after?.expiresAt).toBeGreaterThan(Date.now() + 60_000);
  }, 30_000);

  it('logout forgets the tokens: list then asks for a login again', async () => {
    const out = await startToolwire(['logout', url], env()).exited;
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`Logged out of ${url}`);
    const run = await list();
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`run toolwire login ${url}`);
  }, 30_000);

  it('Ctrl-C during login abandons it and exits 130', async () => {
    const child = startToolwire(['login', url, '--no-browser', '--allow-loopback-http'], env());
    await until(() => /^ {2}http/m.test(child.output().stderr), 15_000, 'the authorization URL');
    child.kill('SIGINT');
    const run = await child.exited;
    expect(run.code).toBe(130);
    expect(run.stderr).toContain('interrupted');
  }, 30_000);
});

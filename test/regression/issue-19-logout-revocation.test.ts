/**
 * Issue 19: `toolwire logout` forgot the tokens locally but never told the authorization server,
 * so the forgotten refresh token (in a backup, on another machine) still worked afterwards. It
 * now revokes them (RFC 7009) where the server's metadata advertises a `revocation_endpoint`, as
 * the client they were issued to; a revocation that fails is reported and the tokens are
 * forgotten all the same. Against oidc-provider, whose revocation of a refresh token ends the
 * grant.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileOAuthStore } from '../../src/node.js';
import { secretOf, signIn, startAuthServer, type TestAuthServer } from '../support/authServer.js';
import { serveProtected, startToolwire, until } from '../support/cliRun.js';

let auth: TestAuthServer;
let url = '';
const children: Array<ReturnType<typeof startToolwire>> = [];
const homes: string[] = [];

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

/** Logs in as alice with a config folder of its own; the tokens and client stored. */
async function login(extra: string[] = [], env: Record<string, string> = {}) {
  const home = mkdtempSync(join(tmpdir(), 'toolwire-revoke-'));
  homes.push(home);
  const child = startToolwire(['login', url, '--no-browser', '--allow-loopback-http', ...extra], {
    XDG_CONFIG_HOME: home,
    ...env,
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
  const store = new FileOAuthStore({ path: join(home, 'toolwire', 'credentials.json') });
  const tokens = await store.getTokens({ issuer: auth.issuer, resource: url });
  const client = await store.getClient(auth.issuer);
  if (!tokens?.refreshToken || !client) throw new Error('login stored no refresh token');
  return { home, store, refreshToken: tokens.refreshToken, client };
}

/** A refresh_token grant with `refreshToken`, as the client `clientId`; the provider's answer. */
async function refreshWith(refreshToken: string, clientId: string, secret?: string) {
  const response = await fetch(`${auth.issuer}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(secret
        ? { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` }
        : {}),
    },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      ...(secret ? {} : { client_id: clientId }),
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const logout = (home: string, args: string[], env: Record<string, string> = {}) =>
  startToolwire(['logout', url, ...args], { XDG_CONFIG_HOME: home, ...env }).exited;

describe('issue 19: toolwire logout revokes the tokens at the authorization server', () => {
  it('after logout, the old refresh token is refused by the authorization server', async () => {
    const { home, store, refreshToken, client } = await login();
    const out = await logout(home, ['--allow-loopback-http']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toBe(
      `Logged out of ${url}: removed the tokens issued by ${auth.issuer}.\n` +
        `Revoked them at ${auth.issuer}.\n`,
    );
    expect(out.stderr).toBe('');
    expect(await store.getTokens({ issuer: auth.issuer, resource: url })).toBeUndefined();
    const refused = await refreshWith(refreshToken, client.clientId);
    expect(refused.status).toBe(400);
    expect(refused.body['error']).toBe('invalid_grant');
  }, 60_000);

  it('--json-output says what was revoked', async () => {
    const { home } = await login();
    const out = await logout(home, ['--allow-loopback-http', '--json-output']);
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({
      url,
      loggedOut: [
        {
          resource: url,
          issuers: [auth.issuer],
          revocations: [{ issuer: auth.issuer, status: 'revoked' }],
        },
      ],
    });
  }, 60_000);

  it('a revocation that fails is reported, and the tokens are forgotten all the same', async () => {
    const { home, store, refreshToken, client } = await login();
    // Without --allow-loopback-http the http authorization server is not contacted.
    const out = await logout(home, ['--json-output']);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(`could not revoke the tokens of ${url} at ${auth.issuer}`);
    expect(out.stderr).toContain('They are forgotten here, but stay valid there');
    expect(JSON.parse(out.stdout)).toMatchObject({
      loggedOut: [{ revocations: [{ status: 'failed', reason: 'insecure_url' }] }],
    });
    expect(await store.getTokens({ issuer: auth.issuer, resource: url })).toBeUndefined();
    // Honest: nothing was revoked, and the server still takes the refresh token.
    expect((await refreshWith(refreshToken, client.clientId)).status).toBe(200);
  }, 60_000);

  it('--no-revoke only forgets', async () => {
    const { home, store, refreshToken, client } = await login();
    const out = await logout(home, ['--no-revoke']);
    expect(out).toMatchObject({ code: 0, stderr: '' });
    expect(out.stdout).toBe(`Logged out of ${url}: removed the tokens issued by ${auth.issuer}.\n`);
    expect(await store.getTokens({ issuer: auth.issuer, resource: url })).toBeUndefined();
    expect((await refreshWith(refreshToken, client.clientId)).status).toBe(200);
  }, 60_000);

  it('a confidential pre-registered client revokes with the secret given again', async () => {
    const env = { TOOLWIRE_TEST_SECRET: secretOf('cli-secret') };
    const secretArgs = ['--client-secret-env', 'TOOLWIRE_TEST_SECRET'];
    const first = await login(['--client-id', 'cli-secret', ...secretArgs], env);
    // Without the secret the server refuses to revoke: said, with the way out.
    const unauthenticated = await logout(first.home, ['--allow-loopback-http']);
    expect(unauthenticated.code).toBe(0);
    expect(unauthenticated.stderr).toContain('logout --client-secret-env <VAR>');
    const second = await login(['--client-id', 'cli-secret', ...secretArgs], env);
    const out = await logout(second.home, ['--allow-loopback-http', ...secretArgs], env);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain(`Revoked them at ${auth.issuer}.`);
    const refused = await refreshWith(second.refreshToken, 'cli-secret', secretOf('cli-secret'));
    expect(refused.body['error']).toBe('invalid_grant');
  }, 90_000);
});

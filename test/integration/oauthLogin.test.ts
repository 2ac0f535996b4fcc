/**
 * Issue 12: `toolwire login`, `list`, `call` and `logout` end to end, as a user runs them: a
 * toolwire server protected by a real authorization server (oidc-provider on 127.0.0.1), the
 * login's authorization URL read from its stderr and signed in to by a scripted user, the
 * redirect delivered to login's loopback listener, the tokens kept in a 0600 file and used (and
 * refreshed) by list and call, then forgotten by logout.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileOAuthStore } from '../../src/node.js';
import { secretOf, signIn, startAuthServer, type TestAuthServer } from '../support/authServer.js';
import {
  CLI_SERVER,
  serveProtected as serveOnAuth,
  startToolwire,
  toolwire,
  until,
} from '../support/cliRun.js';
import { ROOT } from '../support/paths.js';

let auth: TestAuthServer;
const servers: Array<ReturnType<typeof startToolwire>> = [];
const homes: string[] = [];
const SCOPED_SERVER = `${ROOT}build/test/fixtures/scopedServer.js`;
let url = '';
let home = '';
const credentials = (dir = home) => join(dir, 'toolwire', 'credentials.json');

/** A config folder of its own (XDG_CONFIG_HOME): a user with their own credentials file. */
function newHome(): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolwire-login-'));
  homes.push(dir);
  return dir;
}

/**
 * `toolwire serve` of a fixture (the CLI's by default) protected by the test authorization
 * server; its URL.
 */
async function serveProtected(fixture = CLI_SERVER): Promise<string> {
  const served = await serveOnAuth(auth, fixture);
  servers.push(served.child);
  return served.url;
}

beforeAll(async () => {
  auth = await startAuthServer();
  home = newHome();
  url = await serveProtected();
}, 30_000);

afterAll(async () => {
  for (const server of servers) {
    server.kill('SIGTERM');
    await server.exited;
  }
  await auth?.close();
  for (const dir of homes) rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs `toolwire login` and plays the user: signs in at the URL it prints, as `alice`.
 * `as`: the config folder and server (default: the first test's).
 */
async function loginAs(
  as: { home: string; url: string; env?: Record<string, string> },
  ...extra: string[]
) {
  const child = startToolwire(
    ['login', as.url, '--no-browser', '--allow-loopback-http', ...extra],
    { XDG_CONFIG_HOME: as.home, ...as.env },
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

const login = (...extra: string[]) => loginAs({ home, url }, ...extra);

/** `toolwire list <url> --allow-loopback-http` with the credentials of `as`. */
const listAs = (as: { home: string; url: string }, ...extra: string[]) =>
  startToolwire(['list', as.url, '--allow-loopback-http', ...extra], { XDG_CONFIG_HOME: as.home })
    .exited;

const list = (...extra: string[]) => listAs({ home, url }, ...extra);

/** Makes the stored access token of `as` about to expire; returns the tokens as they were. */
async function expireSoon(as: { home: string; url: string }) {
  const store = new FileOAuthStore({ path: credentials(as.home) });
  const key = { issuer: auth.issuer, resource: as.url };
  const before = await store.getTokens(key);
  if (!before) throw new Error(`no tokens stored for ${as.url}`);
  await store.setTokens(key, { ...before, expiresAt: Date.now() + 1_000 });
  return { store, key, before };
}

describe('toolwire login, list, call, logout against a protected server', () => {
  it('login --help, -h and help login agree: options, credentials file, exit statuses', () => {
    const help = toolwire('login', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: toolwire login <url> /);
    for (const option of [
      '--scope <scope>',
      '--client-id <id>',
      '--client-secret-env <VAR>',
      '--client-metadata-url <url>',
      '--no-browser',
      '--redirect-port <port>',
      '--allow-loopback-http',
      '--json-output',
    ])
      expect(help.stdout).toContain(`  ${option}`);
    expect(help.stdout).toContain('~/.config/toolwire/credentials.json');
    expect(help.stdout).toContain('with --scope, name every scope you need');
    expect(help.stdout).toContain('130  interrupted (Ctrl-C)');
    expect(toolwire('login', '-h').stdout).toBe(help.stdout);
    expect(toolwire('help', 'login').stdout).toBe(help.stdout);
    for (const command of ['list', 'call'])
      expect(toolwire(command, '--help').stdout).toContain('  --allow-loopback-http');
  });

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
    expect(statSync(dirname(credentials())).mode & 0o777).toBe(0o700);

    const listed = await list();
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('slow');
    const called = await startToolwire(
      ['call', '--yes', 'big', '--arg', 'bytes=3', url, '--allow-loopback-http', '--json-output'],
      { XDG_CONFIG_HOME: home },
    ).exited;
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout)).toMatchObject({ content: [{ type: 'text', text: 'xxx' }] });
  }, 60_000);

  it('refreshes tokens about to expire, without the user', async () => {
    const { store, key, before } = await expireSoon({ home, url });
    expect(before.refreshToken).toEqual(expect.any(String));
    const listed = await list();
    expect(listed.code, listed.stderr).toBe(0);
    const after = await store.getTokens(key);
    expect(after?.accessToken).not.toBe(before.accessToken);
    expect(after?.expiresAt).toBeGreaterThan(Date.now() + 60_000);
  }, 30_000);

  it('logout forgets and revokes the tokens: list then asks for a login again', async () => {
    const out = await startToolwire(['logout', url, '--allow-loopback-http'], {
      XDG_CONFIG_HOME: home,
    }).exited;
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`Logged out of ${url}`);
    expect(out.stdout).toContain(`Revoked them at ${auth.issuer}.`);
    const run = await list();
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`run toolwire login ${url}`);
  }, 30_000);

  it('Ctrl-C during login abandons it and exits 130', async () => {
    const child = startToolwire(['login', url, '--no-browser', '--allow-loopback-http'], {
      XDG_CONFIG_HOME: home,
    });
    await until(() => /^ {2}http/m.test(child.output().stderr), 15_000, 'the authorization URL');
    child.kill('SIGINT');
    const run = await child.exited;
    expect(run.code).toBe(130);
    expect(run.stderr).toContain('interrupted');
  }, 30_000);
});

describe('toolwire login with a pre-registered client (--client-id)', () => {
  it('a public client: its id is sent, no registration is made, list uses the tokens', async () => {
    const as = { home: newHome(), url };
    const { run, shown } = await loginAs(as, '--client-id', 'cli-public');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Logged in to ${url} (authorization server ${auth.issuer}`);
    expect(shown.searchParams.get('client_id')).toBe('cli-public');
    expect(shown.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const store = new FileOAuthStore({ path: credentials(as.home) });
    expect((await store.getClient(auth.issuer))?.registration).not.toBe('dynamic');
    const listed = await listAs(as);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('slow');
  }, 60_000);

  it('--scope asks for those scopes; --json-output prints the login as JSON', async () => {
    const as = { home: newHome(), url };
    const { run, shown } = await loginAs(
      as,
      ...['--client-id', 'cli-public', '--scope', 'mcp:tools files:read', '--json-output'],
    );
    expect(run.code, run.stderr).toBe(0);
    const asked = shown.searchParams.get('scope')?.split(' ');
    expect(asked).toEqual(expect.arrayContaining(['mcp:tools', 'files:read']));
    expect(asked).not.toContain('mcp:admin');
    const printed = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(printed).toMatchObject({
      issuer: auth.issuer,
      resource: url,
      registration: 'pre-registered',
      hasRefreshToken: true,
      expiresAt: expect.any(Number),
      file: credentials(as.home),
    });
    expect(String(printed['scope']).split(' ')).toEqual(
      expect.arrayContaining(['mcp:tools', 'files:read']),
    );
  }, 60_000);

  // Found by this test: a pre-registered client was never kept in the store, and list's
  // OAuthClient has no `preRegistered`, so its refresh found no client and dropped the tokens.
  // The client is kept now (without any secret).
  it('the tokens of a pre-registered client are refreshed by list', async () => {
    const as = { home: newHome(), url };
    expect((await loginAs(as, '--client-id', 'cli-public')).run.code).toBe(0);
    const { store, key, before } = await expireSoon(as);
    expect(before.refreshToken).toEqual(expect.any(String));
    const listed = await listAs(as);
    expect(listed.code, listed.stderr).toBe(0);
    expect((await store.getTokens(key))?.accessToken).not.toBe(before.accessToken);
  }, 60_000);

  it('a confidential client: the secret comes from the variable --client-secret-env names', async () => {
    const as = { home: newHome(), url, env: { TOOLWIRE_TEST_SECRET: secretOf('cli-secret') } };
    const { run } = await loginAs(
      as,
      ...['--client-id', 'cli-secret', '--client-secret-env', 'TOOLWIRE_TEST_SECRET'],
    );
    expect(run.code, run.stderr).toBe(0);
    const listed = await listAs(as);
    expect(listed.code, listed.stderr).toBe(0);
    // The secret is the user's to keep: it is not written next to the tokens.
    expect(readFileSync(credentials(as.home), 'utf8')).not.toContain(secretOf('cli-secret'));
  }, 60_000);

  it('a wrong secret fails at the token endpoint: exit 3, kind authorization, nothing stored', async () => {
    const as = { home: newHome(), url, env: { TOOLWIRE_TEST_SECRET: 'wrong' } };
    const { run } = await loginAs(
      as,
      ...['--client-id', 'cli-secret', '--client-secret-env', 'TOOLWIRE_TEST_SECRET'],
      '--json-output',
    );
    expect(run.code).toBe(3);
    expect(JSON.parse(run.stdout)).toMatchObject({
      error: { kind: 'authorization', issuer: auth.issuer },
    });
    const store = new FileOAuthStore({ path: credentials(as.home) });
    expect(await store.getTokens({ issuer: auth.issuer, resource: url })).toBeUndefined();
  }, 60_000);

  it('--client-secret-env naming an unset variable: usage error (exit 2), nothing sent', async () => {
    const run = await startToolwire(
      [
        ...['login', url, '--no-browser', '--allow-loopback-http'],
        ...['--client-id', 'cli-secret', '--client-secret-env', 'TOOLWIRE_NO_SUCH_VAR'],
      ],
      { XDG_CONFIG_HOME: newHome() },
    ).exited;
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'login: the environment variable TOOLWIRE_NO_SUCH_VAR (--client-secret-env) is not set',
    );
    expect(run.stderr).not.toMatch(/^ {2}http/m);
  }, 30_000);
});

describe('two servers behind one authorization server', () => {
  // Found by this test: the dynamic registration was redone when the loopback redirect's port
  // differed, which it does at every login; the second login replaced the client the first
  // server's refresh token was issued to, and that refresh was refused. A loopback redirect now
  // matches whatever its port (RFC 8252 §7.3).
  it('logging in to a second server keeps the tokens of the first refreshable', async () => {
    const first = { home: newHome(), url };
    const second = { home: first.home, url: await serveProtected() };
    expect((await loginAs(first)).run.code).toBe(0);
    expect((await loginAs(second)).run.code).toBe(0);
    const { store, key, before } = await expireSoon(first);
    const listed = await listAs(first);
    expect(listed.code, listed.stderr).toBe(0);
    expect((await store.getTokens(key))?.accessToken).not.toBe(before.accessToken);
    expect((await listAs(second)).code).toBe(0);
  }, 90_000);
});

describe('a tool that needs a scope the login did not ask for', () => {
  it('call says the server may hide it and how to log in for more; with the scope it runs', async () => {
    const as = { home: newHome(), url: await serveProtected(SCOPED_SERVER) };
    const call = (tool: string) =>
      startToolwire(['call', '--yes', tool, as.url, '--allow-loopback-http'], {
        XDG_CONFIG_HOME: as.home,
      }).exited;
    expect((await loginAs(as)).run.code).toBe(0);
    expect((await call('whoami')).stdout).toBe('alice\n');
    const hidden = await call('admin');
    expect(hidden.code).toBe(2);
    expect(hidden.stderr).toBe(
      `call: unknown tool "admin". Tools: whoami (see toolwire list)\n` +
        `The server may hide tools that need scopes your login lacks (it holds: mcp:tools). ` +
        `To ask for more: toolwire login ${as.url} --scope mcp:tools --scope <scope>\n`,
    );
    const again = await loginAs(as, '--scope', 'mcp:tools', '--scope', 'mcp:admin');
    expect(again.run.code, again.run.stderr).toBe(0);
    const admin = await call('admin');
    expect(admin.code, admin.stderr).toBe(0);
    expect(admin.stdout).toBe('admin done\n');
  }, 60_000);
});

// Issue 12: `toolwire logout <url>` forgets what login stored for a server and says what it
// removed; a credentials file that cannot be used is a clear failure (exit 3) naming the file.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileOAuthStore } from '../../src/node.js';
import { toolwire, type CliRun } from '../support/cliRun.js';
import { CLI } from '../support/paths.js';

let config = '';
let file = '';
beforeEach(() => {
  config = mkdtempSync(join(tmpdir(), 'toolwire-logout-'));
  file = join(config, 'toolwire', 'credentials.json');
});
afterEach(() => rmSync(config, { recursive: true, force: true }));

/** `toolwire ...args` with the credentials file under the test's own XDG_CONFIG_HOME. */
function run(...args: string[]): CliRun {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, XDG_CONFIG_HOME: config },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const A = 'https://as-a.example';
const B = 'https://as-b.example';
const MCP = 'https://mcp.example/mcp';
const OTHER = 'https://other.example/mcp';

async function seed(): Promise<FileOAuthStore> {
  const store = new FileOAuthStore({ path: file });
  const tokens = { accessToken: 'secret-token', tokenType: 'Bearer', refreshToken: 'r' };
  await store.setTokens({ issuer: A, resource: MCP }, tokens);
  await store.setTokens({ issuer: B, resource: MCP }, tokens);
  await store.setTokens({ issuer: A, resource: OTHER }, tokens);
  await store.setIssuerOf(MCP, B);
  await store.setClient(A, {
    clientId: 'c',
    tokenEndpointAuthMethod: 'none',
    registration: 'dynamic',
  });
  return store;
}

describe('toolwire logout', () => {
  it('--help, -h and help logout agree, exit 0', () => {
    const help = toolwire('logout', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: toolwire logout <url> /);
    expect(help.stdout).toContain('  --json-output');
    // Issue 19: logout revokes the tokens at the authorization server, unless --no-revoke.
    for (const option of ['--no-revoke', '--allow-loopback-http', '--client-secret-env <VAR>'])
      expect(help.stdout).toContain(`  ${option}`);
    expect(help.stdout).toContain(
      '3    the authorization failed, or the server or the credentials',
    );
    expect(toolwire('logout', '-h').stdout).toBe(help.stdout);
    expect(toolwire('help', 'logout').stdout).toBe(help.stdout);
    expect(toolwire('--help').stdout).toContain('toolwire logout <url>');
  });

  it('removes the tokens of the server from every issuer, whatever the spelling of its URL', async () => {
    const store = await seed();
    // --no-revoke: these authorization servers do not exist (issue 19's revocation is tested
    // against a real one in issue-19-logout-revocation.test.ts).
    const r = run('logout', 'https://MCP.example:443/mcp/', '--no-revoke');
    expect(r).toEqual({
      code: 0,
      stdout: `Logged out of ${MCP}: removed the tokens issued by ${A}, ${B}.\n`,
      stderr: '',
    });
    expect(await store.resources()).toEqual([OTHER]);
    expect(await store.getClient(A)).toBeDefined();
    expect(await store.getIssuerOf(MCP)).toBeUndefined();
  });

  it('says so when nothing is stored for the server (exit 0), and creates no file', () => {
    const r = run('logout', 'https://nowhere.example/mcp');
    expect(r).toEqual({
      code: 0,
      stdout: `Not logged in to https://nowhere.example/mcp: nothing stored for it in ${file}.\n`,
      stderr: '',
    });
    expect(existsSync(join(config, 'toolwire'))).toBe(false);
  });

  it('--json-output prints what was removed', async () => {
    await seed();
    const r = run('logout', OTHER, '--json-output', '--no-revoke');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      url: OTHER,
      loggedOut: [{ resource: OTHER, issuers: [A], revocations: [] }],
      file,
    });
  });

  it('a corrupt credentials file: exit 3, the file named, no stack trace, kept as it was', () => {
    mkdirSync(join(config, 'toolwire'), { mode: 0o700 });
    writeFileSync(file, '{"version": 1, "tokens": {', { mode: 0o600 });
    const r = run('logout', MCP);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      new RegExp(`^toolwire: the credentials file ${file} is corrupt: it is not valid JSON`),
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const json = run('logout', MCP, '--json-output');
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: { kind: 'credentials', file, problem: 'corrupt' },
    });
  });

  it('a credentials file others can read: exit 3 with the fix', async () => {
    await seed();
    chmodSync(file, 0o644);
    const r = run('logout', MCP);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      `is accessible to other users (mode 644): make it private with chmod 600 ${file}`,
    );
  });

  it('usage errors exit 2', () => {
    expect(run('logout')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'logout: give exactly one server URL (see toolwire logout --help)\n',
    });
  });
});

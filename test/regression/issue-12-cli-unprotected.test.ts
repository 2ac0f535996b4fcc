// Issue 12: list and call against a URL now carry an OAuth client (the tokens `toolwire login`
// stored). A server that asks for no authorization must see exactly the requests it saw before:
// no metadata probe, no Authorization header, and no credentials file is created. `login` on such
// a server says there is nothing to log in to (exit 3), and stores nothing. A credentials file
// that cannot be used (exposed, corrupt) does not stop them either: it is reported when a server
// asks for a token.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_SERVER, serveHttp, startToolwire } from '../support/cliRun.js';
import { freePort } from '../support/redis.js';
import { startRoundRobinProxy, type RoundRobinProxy } from '../support/roundRobinProxy.js';

let server: Awaited<ReturnType<typeof serveHttp>>;
let guarded: Awaited<ReturnType<typeof serveHttp>>;
let proxy: RoundRobinProxy;
let url = '';
let home = '';

beforeAll(async () => {
  server = await serveHttp(CLI_SERVER);
  // A server that asks for a token (its authorization server is never reached: no token comes).
  const nowhere = `http://127.0.0.1:${await freePort()}`;
  guarded = await serveHttp(CLI_SERVER, [
    ...['--auth-jwks', `${nowhere}/jwks`, '--auth-issuer', nowhere],
    ...['--auth-audience', 'http://127.0.0.1/mcp', '--auth-allow-loopback-http'],
  ]);
  proxy = await startRoundRobinProxy([new URL(server.url).origin]);
  url = `${proxy.url}/mcp`;
  home = mkdtempSync(join(tmpdir(), 'toolwire-unprotected-'));
}, 30_000);

afterAll(async () => {
  await proxy?.close();
  for (const s of [server, guarded]) {
    s?.child.kill('SIGTERM');
    await s?.child.exited;
  }
  rmSync(home, { recursive: true, force: true });
});

/** Runs `toolwire ...args` with the test's config folder; the requests the server saw. */
async function run(...args: string[]) {
  const start = proxy.log.length;
  const result = await startToolwire(args, { XDG_CONFIG_HOME: home }).exited;
  return { ...result, requests: proxy.log.slice(start) };
}

const shape = (requests: RoundRobinProxy['log']) => requests.map((r) => `${r.method} ${r.path}`);

describe('list, call and login against a server that takes no tokens', () => {
  it('list sends the same requests as with a fixed header, without Authorization, and stores nothing', async () => {
    const listed = await run('list', url);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('slow');
    expect(listed.requests.length).toBeGreaterThan(0);
    expect(listed.requests.every((r) => !r.authorization)).toBe(true);
    expect(listed.requests.every((r) => r.path === '/mcp')).toBe(true);
    // Without the OAuth client (an Authorization header of the command line replaces it).
    const fixed = await run('list', url, '--header', 'Authorization: Bearer fixed');
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.requests.every((r) => r.authorization)).toBe(true);
    expect(shape(listed.requests)).toEqual(shape(fixed.requests));
    expect(existsSync(join(home, 'toolwire'))).toBe(false);
  }, 30_000);

  it('call works as before and stores nothing', async () => {
    const called = await run('call', '--yes', 'big', '--arg', 'bytes=3', url, '--json-output');
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout)).toMatchObject({ content: [{ type: 'text', text: 'xxx' }] });
    expect(called.requests.every((r) => !r.authorization && r.path === '/mcp')).toBe(true);
    // An unknown tool: no word about scopes (no token was sent), and still no file.
    const unknown = await run('call', '--yes', 'nosuch', url);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'call: unknown tool "nosuch". Tools: slow, big (see toolwire list)\n',
    );
    expect(existsSync(join(home, 'toolwire'))).toBe(false);
  }, 30_000);

  it('login says there is nothing to log in to (exit 3) and stores nothing', async () => {
    const login = await run('login', url, '--no-browser', '--allow-loopback-http');
    expect(login.code).toBe(3);
    expect(login.stderr).toContain(`toolwire: ${url} did not ask for authorization (HTTP 200)`);
    expect(login.stderr).toContain('there is nothing to log in to');
    expect(login.stdout).toBe('');
    const json = await run('login', url, '--no-browser', '--allow-loopback-http', '--json-output');
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: { kind: 'authorization', reason: 'not_protected' },
    });
    expect(existsSync(join(home, 'toolwire'))).toBe(false);
  }, 30_000);
});

describe('a credentials file that cannot be used', () => {
  /** A config folder whose credentials file is `text` with `mode`. */
  function brokenHome(text: string, mode: number): string {
    const dir = mkdtempSync(join(tmpdir(), 'toolwire-broken-'));
    mkdirSync(join(dir, 'toolwire'), { mode: 0o700 });
    const file = join(dir, 'toolwire', 'credentials.json');
    writeFileSync(file, text);
    chmodSync(file, mode);
    return dir;
  }

  it.each([
    ['readable by others', '{"version":1}', 0o644, 'accessible to other users (mode 644)'],
    ['corrupt', '{garbage', 0o600, 'is corrupt'],
  ])(
    '%s: list still works with a server that asks for no token',
    async (_, text, mode, problem) => {
      const dir = brokenHome(text, mode);
      try {
        const listed = await startToolwire(['list', server.url], { XDG_CONFIG_HOME: dir }).exited;
        expect(listed.code, listed.stderr).toBe(0);
        expect(listed.stdout).toContain('slow');
        // A server that asks for a token: the file's problem is the failure, with its fix.
        const refused = await startToolwire(['list', guarded.url, '--json-output'], {
          XDG_CONFIG_HOME: dir,
        }).exited;
        expect(refused.code).toBe(3);
        expect(refused.stderr).toContain(problem);
        expect(JSON.parse(refused.stdout)).toMatchObject({ error: { kind: 'credentials' } });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    30_000,
  );
});

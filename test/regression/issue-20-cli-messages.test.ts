/**
 * Issue 20, the CLI's rough edges: `login` (and every client command) named the library option
 * `allowLoopbackHttp` where its flag is `--allow-loopback-http`; a stdio server that died had its
 * stderr printed twice (passed through as it was written, then quoted again under the exit
 * status): it is printed once now, the message saying it is above (`--json-output` still carries
 * it); `serve` over stdio on a terminal printed nothing: it now says, in one line on stderr, that
 * it waits for a client on stdin (and says nothing when stdin is not a terminal).
 * The program's help listed only `approvals list|revoke`; it names `trust|distrust` too.
 * Failed before the fix: the option's name, the stderr lines twice, nothing on the terminal,
 * no `approvals trust|distrust` line.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_SERVER } from '../support/cliRun.js';
import { CLI } from '../support/paths.js';
import { runCli, runOnTerminal } from '../support/terminal.js';

const home = mkdtempSync(join(tmpdir(), 'toolwire-issue20-messages-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('issue 20: login names its own flag', () => {
  /** A server asking for OAuth, its metadata on loopback http. */
  let server: Server;
  let url = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      if (req.url?.startsWith('/.well-known/oauth-protected-resource')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ resource: `${base}/mcp`, authorization_servers: [base] }));
        return;
      }
      res.writeHead(401, {
        'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource"`,
      });
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('an http metadata URL on loopback: the message names --allow-loopback-http', async () => {
    const run = await runCli(['login', url, '--no-browser', '--json-output'], home);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('(http on a loopback host needs --allow-loopback-http)');
    expect(run.stderr).not.toContain('allowLoopbackHttp');
    expect(JSON.parse(run.stdout)).toMatchObject({
      error: { kind: 'authorization', reason: 'insecure_url' },
    });
    expect(run.stdout).not.toContain('allowLoopbackHttp');
  });
});

describe('issue 20: a stdio server that dies has its stderr printed once', () => {
  it('passed through as written; the message says it is above; JSON carries it', async () => {
    const script = join(home, 'dying.mjs');
    writeFileSync(
      script,
      "console.error('loading config');\nconsole.error('Error: no such file');\nprocess.exit(4);\n",
    );
    const run = await runCli(['list', '--json-output', '--', process.execPath, script], home);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      `loading config\nError: no such file\ntoolwire: the server (${process.execPath} ${script}) exited with code 4; its stderr is above\n`,
    );
    expect(JSON.parse(run.stdout)).toMatchObject({
      error: { kind: 'server-exited', exitCode: 4, stderr: 'loading config\nError: no such file' },
    });
  });

  it('a server that wrote nothing is said to have written nothing', async () => {
    const run = await runCli(['list', '--', process.execPath, '-e', 'process.exit(5)'], home);
    expect(run.stderr).toMatch(/ exited with code 5 without writing anything on stderr\n$/);
  });
});

describe('issue 20: serve over stdio on a terminal says what it waits for', () => {
  it('one line on stderr; Ctrl-D ends it', async () => {
    const shown = await runOnTerminal(
      ['serve', CLI_SERVER],
      [['waiting for an MCP client', '\x04']],
      home,
    );
    expect(shown.code, shown.screen).toBe(0);
    expect(shown.screen).toContain(
      'toolwire: serving cli-fixture over stdio: waiting for an MCP client on stdin (a host such as toolwire list -- toolwire serve <module> runs it; Ctrl-C stops it)\n',
    );
  });

  it('nothing when stdin is not a terminal (a host runs it)', async () => {
    const run = await runCli(['list', '--', process.execPath, CLI, 'serve', CLI_SERVER], home);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('slow');
    expect(run.stderr).toBe('');
  });
});

describe('issue 20: the program help names every approvals subcommand', () => {
  it('lists approvals trust|distrust beside list|revoke', async () => {
    const run = await runCli(['--help'], home);
    expect(run.code, run.stderr).toBe(0);
    const usage = run.stdout.split('Usage:\n')[1]?.split('\n\n')[0] ?? '';
    expect(usage).toMatch(/^ {2}toolwire approvals list\|revoke +\S/m);
    expect(usage).toMatch(
      /^ {2}toolwire approvals trust\|distrust +Whether a server's annotations count$/m,
    );
  });
});

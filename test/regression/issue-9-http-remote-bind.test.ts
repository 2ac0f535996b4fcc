/**
 * Issue 9, HTTP: `toolwire serve --http <port> --host 0.0.0.0` served every tool to anyone who
 * could reach the address: `serve` has no authentication, and nothing asked the operator to
 * decide. A non-loopback `--host` is now refused unless `--allowed-host` names the hosts clients
 * use, or `--allow-unauthenticated-remote` insists (and the handler warns). The library warns too
 * (through `onerror`) when `serveHttp` listens beyond loopback for a handler with neither
 * `authenticate` nor `origins.allowedHosts`. No test here binds anything but 127.0.0.1.
 */
import { describe, expect, it } from 'vitest';
import { parseCommand, UsageError } from '../../src/cli/args.js';
import { createHttpHandler, type HttpHandlerOptions } from '../../src/http.js';
import { isLoopbackHost, serveHttp } from '../../src/node.js';
import { McpServer } from '../../src/server.js';
import { CLI_SERVER, toolwire } from '../support/cliRun.js';

const serveArgs = (...extra: string[]) => ['serve', 'srv.js', '--http', '0', ...extra];

describe('toolwire serve refuses an exposed address without a decision', () => {
  it.each(['0.0.0.0', '::', '192.168.1.20', 'mcp.example.com'])(
    'refuses --host %s alone, saying what to configure',
    (host) => {
      expect(() => parseCommand(serveArgs('--host', host))).toThrow(UsageError);
      expect(() => parseCommand(serveArgs('--host', host))).toThrow(
        /not a loopback address.*--allowed-host <name>.*--allow-unauthenticated-remote/,
      );
    },
  );

  it('accepts it with --allowed-host or --allow-unauthenticated-remote, and loopback hosts as before', () => {
    expect(
      parseCommand(serveArgs('--host', '0.0.0.0', '--allowed-host', 'mcp.example.com')),
    ).toMatchObject({ mode: { host: '0.0.0.0', allowedHosts: ['mcp.example.com'] } });
    expect(
      parseCommand(serveArgs('--host', '0.0.0.0', '--allow-unauthenticated-remote')),
    ).toMatchObject({ mode: { host: '0.0.0.0', allowUnauthenticatedRemote: true } });
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2'])
      expect(parseCommand(serveArgs('--host', host))).toMatchObject({ mode: { host } });
    expect(() => parseCommand(['serve', 'srv.js', '--allow-unauthenticated-remote'])).toThrow(
      /--allow-unauthenticated-remote applies to --http only/,
    );
  });

  it('exits 2 with the message before loading the module or listening', () => {
    // 192.0.2.1 (TEST-NET-1) is on no interface here: even a build that lets it through cannot
    // listen on it (it would exit 3), so no test ever serves beyond loopback.
    const run = toolwire('serve', CLI_SERVER, '--http', '0', '--host', '192.0.2.1');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^serve: --host 192\.0\.2\.1 is not a loopback address/);
    expect(run.stderr).toContain('--allow-unauthenticated-remote');
    expect(run.stderr).not.toContain('serving');
  });

  it('makes a malformed --allowed-host a usage error', () => {
    const run = toolwire('serve', CLI_SERVER, '--http', '0', '--allowed-host', 'a@b');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^serve: --allowed-host: "a@b" is not a host name/);
  });
});

describe('the library warns through onerror', () => {
  function handlerOf(options: HttpHandlerOptions = {}) {
    const reports: string[] = [];
    const handler = createHttpHandler(new McpServer({ name: 'bind', version: '1' }), {
      onerror: (e) => reports.push(e instanceof Error ? e.message : String(e)),
      ...options,
    });
    return { handler, reports };
  }

  it('for a non-loopback address without authenticate or allowedHosts', () => {
    const { handler, reports } = handlerOf();
    handler.noteListening('0.0.0.0');
    expect(reports).toEqual([
      'warning: listening on 0.0.0.0, which is not a loopback address, with neither authentication nor an allowed-hosts list: anyone who can reach it can call every tool',
    ]);
    for (const options of [
      { authenticate: () => ({ id: 'x' }) },
      { origins: { allowedHosts: ['mcp.example.com'] } },
    ]) {
      const quiet = handlerOf(options);
      quiet.handler.noteListening('0.0.0.0');
      expect(quiet.reports).toEqual([]);
    }
    const local = handlerOf();
    for (const host of ['127.0.0.1', '::1', 'localhost']) local.handler.noteListening(host);
    expect(local.reports).toEqual([]);
  });

  it('is told the address by serveHttp', async () => {
    const seen: string[] = [];
    const listener = await serveHttp({
      handle: () => Promise.resolve({ status: 204, headers: {} }),
      noteListening: (host) => seen.push(host),
    });
    await listener.close();
    expect(seen).toEqual(['127.0.0.1']);
  });

  it('knows loopback addresses in their spellings', () => {
    for (const host of [
      'localhost',
      '127.0.0.1',
      '127.9.9.9',
      '::1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
      '::ffff:127.0.0.1',
    ])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of [
      '0.0.0.0',
      '::',
      '10.0.0.1',
      '::ffff:10.0.0.1',
      'example.com',
      '1::1',
      '128.0.0.1',
    ])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});

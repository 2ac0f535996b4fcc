// Issue 8: `toolwire serve` let a module's output at import time reach stdout (the guard was
// installed after loading it), and could not run a TypeScript module.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { unwrapInterop } from '../../src/cli/typescript.js';
import { TS_SERVER, toolwire, until } from '../support/cliRun.js';
import { CLI, NOISY } from '../support/paths.js';

describe('serve keeps stdout for MCP from the first byte', () => {
  it('sends what the module prints while it is imported to stderr', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', NOISY]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdin.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 't', version: '1' },
        },
      }) + '\n',
    );
    try {
      await until(() => stdout.includes('\n'), 10_000, 'the initialize answer');
      child.stdin.end();
      await new Promise((r) => child.once('close', r));
      // Only MCP messages on stdout: the first line is the answer, every line is JSON-RPC.
      const lines = stdout.trim().split('\n');
      expect(lines.map((l) => (JSON.parse(l) as { jsonrpc: string }).jsonrpc)).toEqual(
        lines.map(() => '2.0'),
      );
      expect(JSON.parse(lines[0] ?? '')).toMatchObject({
        id: 1,
        result: { serverInfo: { name: 'noisy' } },
      });
      expect(stderr).toContain('loaded the noisy module');
      expect(stderr).toContain('raw write at import');
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('serve runs TypeScript modules', () => {
  it('serves the .ts file itself', () => {
    const target = ['--', process.execPath, CLI, 'serve', TS_SERVER];
    expect(toolwire('call', '--yes', 'greet', ...target)).toEqual({
      code: 0,
      stdout: 'hello from TypeScript\n',
      stderr: '',
    });
    expect(toolwire('list', ...target).stdout).toMatch(/^greet\n {2}Greets\n/);
  });

  it('serves it over HTTP too', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', TS_SERVER, '--http', '0']);
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    try {
      await until(() => /\/mcp/.test(stderr), 15_000, 'the server to listen');
      const url = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)?.[1] ?? '';
      expect(toolwire('call', '--yes', 'greet', url).stdout).toBe('hello from TypeScript\n');
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('takes the exports of a module compiled to CommonJS', () => {
    const server = { name: 'x' };
    expect(unwrapInterop({ default: { __esModule: true, default: server } })).toEqual({
      __esModule: true,
      default: server,
    });
    const plain = { default: server };
    expect(unwrapInterop(plain)).toBe(plain);
  });
});

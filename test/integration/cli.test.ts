import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HOSTILE_SERVER } from '../support/cliRun.js';
import { CLI, EVERYTHING, QUICKSTART_CLIENT, ROOT } from '../support/paths.js';

function toolwire(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 20_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const server = ['--', process.execPath, CLI, 'serve', EVERYTHING];

describe('toolwire CLI', () => {
  it('speaks the era asked for: --era modern and auto (the default) find 2026-07-28 on a toolwire server', () => {
    for (const era of ['modern', 'auto', undefined]) {
      const chosen = era === undefined ? [] : ['--era', era];
      const text = toolwire('list', ...chosen, ...server);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toContain('add (Add)');
      expect(text.stdout).toMatch(/\(protocol 2026-07-28: stateless requests, no session\)\n$/);
      const call = toolwire(
        'call',
        '--yes',
        ...chosen,
        'add',
        '--arg',
        'a=1',
        '--arg',
        'b=2',
        ...server,
      );
      expect(call).toMatchObject({ code: 0, stdout: '{"sum":3}\n' });
    }
    const legacy = JSON.parse(
      toolwire('list', '--json-output', '--era', 'legacy', ...server).stdout,
    ) as { protocolVersion: string };
    expect(legacy.protocolVersion).toBe('2025-11-25');
    expect(toolwire('list', '--era', 'legacy', ...server).stdout).not.toContain('(protocol');
  });

  it('lists tools readably and as JSON', () => {
    const text = toolwire('list', ...server);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('add (Add)\n  Adds two numbers');
    expect(text.stdout).toContain('    a: number');
    const json = toolwire('list', '--json-output', ...server);
    const parsed = JSON.parse(json.stdout) as { tools: Array<{ name: string }> };
    expect(parsed.tools.map((t) => t.name)).toContain('weather');
  });

  it('runs a task tool as a task, printing its status changes, and --task on request', () => {
    // 2025-11-25 tasks (the 2026 tasks extension is not in the client yet).
    const report = toolwire(
      'call',
      '--yes',
      '--era',
      'legacy',
      'report',
      '--arg',
      'sections=2',
      '--arg',
      'delayMs=20',
      ...server,
    );
    expect(report.code).toBe(0);
    expect(JSON.parse(report.stdout)).toEqual({
      topic: 'MCP tasks',
      sections: ['Section 1 on MCP tasks', 'Section 2 on MCP tasks'],
    });
    expect(report.stderr).toMatch(/^task ([0-9a-f-]{36}) working\ntask \1 completed\n$/);
    // Polls repeat the status: each change is printed once.
    expect(report.stderr.match(/ working\n/g)).toHaveLength(1);
    const optional = toolwire(
      'call',
      '--yes',
      'long_running',
      '--arg',
      'steps=1',
      '--arg',
      'delayMs=1',
      '--task',
      ...server,
    );
    expect(optional).toMatchObject({ code: 0, stdout: 'Finished 1 steps\n' });
    expect(optional.stderr).toMatch(/^task \S+ working\n/);
    const plain = toolwire(
      'call',
      '--yes',
      'long_running',
      '--arg',
      'steps=1',
      '--arg',
      'delayMs=1',
      ...server,
    );
    expect(plain).toMatchObject({ code: 0, stdout: 'Finished 1 steps\n', stderr: '' });
  });

  it('calls a tool with typed --arg values and --json', () => {
    expect(
      toolwire('call', '--yes', 'add', '--arg', 'a=2', '--arg', 'b=40', ...server),
    ).toMatchObject({
      code: 0,
      stdout: '{"sum":42}\n',
    });
    expect(toolwire('call', '--yes', 'echo', '--arg', 'message=007', ...server).stdout).toBe(
      '007\n',
    );
    const json = toolwire(
      'call',
      '--yes',
      'weather',
      '--json',
      '{"city":"Oslo"}',
      '--json-output',
      ...server,
    );
    expect(JSON.parse(json.stdout)).toMatchObject({
      structuredContent: { city: 'Oslo', units: 'celsius' },
    });
  });

  it('renders every content type', () => {
    const out = toolwire('call', '--yes', 'resources', ...server).stdout;
    expect(out).toContain('[link Read me <file:///project/README.md> Project readme]');
    expect(out).toContain('Hello from an embedded resource');
    expect(out).toMatch(/\[resource file:\/\/\/project\/pixel.png image\/png, \d+ bytes\]/);
    expect(toolwire('call', '--yes', 'sample_audio', ...server).stdout).toMatch(
      /\[audio audio\/wav, 844 bytes\]/,
    );
  });

  it('exits 1 for a tool error, 3 for a protocol error, 2 for a usage error', () => {
    const failed = toolwire('call', '--yes', 'fail', ...server);
    expect(failed).toMatchObject({ code: 1, stdout: '' });
    expect(failed.stderr).toContain('always fails');
    const unknown = toolwire('call', '--yes', 'nope', ...server);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^call: unknown tool "nope"\. Tools: /);
    // A JSON-RPC error answering the call (this raw server answers one for its tool "fail").
    const protocol = toolwire('call', '--yes', 'fail', '--', process.execPath, HOSTILE_SERVER);
    expect(protocol.code).toBe(3);
    expect(protocol.stderr).toMatch(/^toolwire: Error -32602: Error /);
    expect(toolwire('call', '--yes', 'add').code).toBe(2);
    expect(toolwire('call', '--yes', 'add', '--', '/no/such/server').code).toBe(3);
  });

  it('serve refuses a module without a server', () => {
    const r = toolwire('serve', CLI);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/exports no McpServer|cannot load/);
  });
});

describe('examples', () => {
  it('the README quick-start client runs against the quick-start server', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', QUICKSTART_CLIENT], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("[ 'forecast' ]");
    expect(r.stdout).toContain("{ city: 'Lisbon', celsius: 21.5 }");
  });
});

describe('toolwire over HTTP', () => {
  it('serves a module with --http and lists and calls it by URL, then shuts down on SIGTERM', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [CLI, 'serve', EVERYTHING, '--http', '0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stderr.on('data', (c: Buffer) => {
        text += c.toString();
        const m = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(text);
        if (m?.[1]) resolve(m[1]);
      });
      child.once('exit', () => reject(new Error(`serve exited: ${text}`)));
    });
    try {
      const listed = toolwire('list', url);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain('weather (Weather)');
      expect(toolwire('call', '--yes', 'add', '--arg', 'a=20', '--arg', 'b=22', url)).toMatchObject(
        {
          code: 0,
          stdout: '{"sum":42}\n',
        },
      );
      expect(
        toolwire('call', '--yes', 'echo', '--arg', 'message=legacy', url.replace(/\/mcp$/, '/sse'))
          .stdout,
      ).toBe('legacy\n');
    } finally {
      const exited = new Promise<number | null>((resolve) =>
        child.once('exit', (code) => resolve(code)),
      );
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});

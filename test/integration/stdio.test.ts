import { describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import { forgetEras } from '../../src/client/eras/eraMemory.js';
import { LocalError } from '../../src/jsonrpc/errors.js';
import { StdioClientTransport } from '../../src/stdio.js';
import { CLI, EVERYTHING, NOISY, STRICT_LEGACY_SERVER } from '../support/paths.js';
import { sleep } from '../support/scriptedTransport.js';
import { until } from '../support/cliRun.js';

function client() {
  return new McpClient({ name: 'itest', version: '1' }, { protocolEra: 'legacy' });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('stdio against the everything server process', () => {
  it('lists, calls, streams progress, cancels and keeps serving', async () => {
    const c = client();
    await c.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING] }));
    const tools = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['echo', 'add', 'weather', 'long_running']),
    );
    expect(await c.callTool('add', { a: 2, b: 3 })).toMatchObject({
      structuredContent: { sum: 5 },
    });

    const progress: number[] = [];
    await c.callTool(
      'long_running',
      { steps: 3, delayMs: 10 },
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(progress).toEqual([1, 2, 3]);

    const controller = new AbortController();
    const slow = c.callTool(
      'long_running',
      { steps: 50, delayMs: 100 },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 50);
    await expect(slow).rejects.toMatchObject({ code: 'aborted' });
    expect(await c.callTool('echo', { message: 'still here' })).toMatchObject({
      content: [{ text: 'still here' }],
    });
    await c.close();
  });

  it('fails one oversized response cleanly and stays usable', async () => {
    const c = client();
    await c.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'serve', NOISY],
        stderr: 'ignore',
        maxMessageBytes: 64 * 1024,
      }),
    );
    await expect(c.callTool('big', {}, { validateOutput: false })).rejects.toMatchObject({
      code: 'message-too-large',
    });
    await c.ping();
    expect(await c.callTool('shout', {}, { validateOutput: false })).toMatchObject({
      content: [{ text: 'quiet answer' }],
    });
    await c.close();
  });
});

describe('toolwire serve keeps stdout for MCP', () => {
  it('routes console output and raw stdout writes of the module to stderr', async () => {
    const errors: Error[] = [];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve', NOISY],
      stderr: 'pipe',
    });
    const c = new McpClient(
      { name: 'itest', version: '1' },
      { protocolEra: 'legacy', onerror: (e) => errors.push(e) },
    );
    await c.connect(transport);
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await c.callTool('shout')).toMatchObject({ content: [{ text: 'quiet answer' }] });
    await sleep(50);
    await c.close();
    expect(errors).toEqual([]); // no undecodable line ever reached the client
    expect(stderr).toContain('process.stdout.write inside a handler');
    expect(stderr).toContain('console.log inside a handler');
  });
});

describe('the stdio client spawns safely and shuts down in order', () => {
  const script = (body: string) => ['-e', body];

  it('spawns without a shell: metacharacters are not interpreted', async () => {
    const t = new StdioClientTransport({ command: 'node; echo pwned' });
    await expect(t.start()).rejects.toMatchObject({
      code: 'transport',
      message: expect.stringContaining('ENOENT'),
    });
    const echoArgs = new StdioClientTransport({
      command: process.execPath,
      args: script(
        'process.stdout.write(JSON.stringify({jsonrpc:"2.0",method:"argv",params:{argv:process.argv.slice(1)}})+"\\n");setTimeout(()=>{},5000)',
      ).concat(['$(whoami)', '`id`']),
      shutdownGraceMs: 100,
    });
    const seen = new Promise<unknown>((resolve) => (echoArgs.onmessage = resolve));
    await echoArgs.start();
    expect(await seen).toMatchObject({ params: { argv: ['$(whoami)', '`id`'] } });
    await echoArgs.close();
  });

  it('passes only a safe environment unless told otherwise', async () => {
    process.env['TOOLWIRE_TEST_SECRET'] = 'hunter2';
    try {
      const t = new StdioClientTransport({
        command: process.execPath,
        args: script(
          'process.stdout.write(JSON.stringify({jsonrpc:"2.0",method:"env",params:process.env})+"\\n");setTimeout(()=>{},5000)',
        ),
        env: { EXTRA: 'given' },
        shutdownGraceMs: 100,
      });
      const seen = new Promise<Record<string, unknown>>(
        (resolve) =>
          (t.onmessage = (m) => resolve((m as { params: Record<string, unknown> }).params)),
      );
      await t.start();
      const env = await seen;
      expect(env['TOOLWIRE_TEST_SECRET']).toBeUndefined();
      expect(env['EXTRA']).toBe('given');
      expect(env['PATH']).toBeDefined();
      await t.close();
    } finally {
      delete process.env['TOOLWIRE_TEST_SECRET'];
    }
  });

  it('closes stdin first, then SIGTERM, then SIGKILL for a server that ignores both', async () => {
    const t = new StdioClientTransport({
      command: process.execPath,
      args: script(
        'process.on("SIGTERM",()=>process.stderr.write("got SIGTERM\\n"));process.stdin.resume();setInterval(()=>{},1000);process.stderr.write("ready\\n")',
      ),
      stderr: 'pipe',
      shutdownGraceMs: 150,
    });
    await t.start();
    let stderr = '';
    t.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    // Closed before the child installed its SIGTERM handler (a loaded machine), SIGTERM would end
    // it at once: wait until it says it is ready.
    await until(() => stderr.includes('ready'));
    const pid = t.pid as number;
    const closed = new Promise<void>((r) => (t.onclose = r));
    const started = Date.now();
    await t.close();
    await closed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(stderr).toContain('got SIGTERM');
    expect(isAlive(pid)).toBe(false);
  });

  it('stops at the first step for a well-behaved server', async () => {
    const t = new StdioClientTransport({
      command: process.execPath,
      args: [EVERYTHING],
      shutdownGraceMs: 5000,
    });
    await t.start();
    const started = Date.now();
    await t.close();
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('auto era negotiation against a stdio server that exits when probed', () => {
  it('starts the server again and opens with initialize, then goes straight to it', async () => {
    forgetEras();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [STRICT_LEGACY_SERVER],
    });
    const client = new McpClient({ name: 'c', version: '1' });
    await client.connect(transport);
    expect(client.protocolVersion).toBe('2025-06-18');
    expect(await client.callTool('hello')).toMatchObject({ content: [{ text: 'hi' }] });
    // The first process ended on the probe; the session is with a second one.
    expect(isAlive(transport.pid ?? 0)).toBe(false);
    await client.close();
    // Remembered for the command line: no probe, so the process given is the one that serves.
    const second = new StdioClientTransport({
      command: process.execPath,
      args: [STRICT_LEGACY_SERVER],
    });
    const again = new McpClient({ name: 'c', version: '1' });
    await again.connect(second);
    expect(again.protocolVersion).toBe('2025-06-18');
    expect(isAlive(second.pid ?? 0)).toBe(true);
    await again.close();
    forgetEras();
  });

  it('pinned to modern, it fails with what happened instead', async () => {
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'modern' });
    await expect(
      client.connect(
        new StdioClientTransport({ command: process.execPath, args: [STRICT_LEGACY_SERVER] }),
      ),
    ).rejects.toBeInstanceOf(LocalError);
  });
});

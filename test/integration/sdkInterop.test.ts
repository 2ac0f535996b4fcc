// Interoperability with the official TypeScript SDK (@modelcontextprotocol/sdk 1.x) over stdio,
// in both directions.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import { StdioClientTransport } from '../../src/stdio.js';
import { CLI, EVERYTHING, SDK_CLIENT, SDK_SERVER } from '../support/paths.js';
import { sleep } from '../support/scriptedTransport.js';

describe('the official SDK client against the toolwire stdio server', () => {
  for (const [label, server] of [
    ['the example server', [EVERYTHING]],
    ['toolwire serve', [CLI, 'serve', EVERYTHING]],
  ] as const) {
    it(`lists, calls, gets structured content, errors, progress and cancellation (${label})`, () => {
      const run = spawnSync(process.execPath, [SDK_CLIENT, process.execPath, ...server], {
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.status, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as Record<string, unknown>;
      expect(report['tools']).toEqual(
        expect.arrayContaining(['echo', 'add', 'weather', 'long_running']),
      );
      expect(report['add']).toEqual({
        content: [{ type: 'text', text: '{"sum":5}' }],
        structuredContent: { sum: 5 },
      });
      expect(report['weather']).toMatchObject({
        structuredContent: { city: 'Oslo', units: 'celsius' },
      });
      expect(report['fail']).toEqual({
        content: [{ type: 'text', text: 'This tool always fails, on purpose' }],
        isError: true,
      });
      expect(report['unknown']).toMatchObject({
        code: -32602,
        message: expect.stringContaining('Unknown tool: no_such_tool'),
      });
      expect(report['invalid']).toMatchObject({
        isError: true,
        content: [{ text: expect.stringContaining('/a: must be number') }],
      });
      // The SDK client handles notifications a microtask after responses, so the updates that
      // share a read with the response are dropped (on a loaded machine the last two or three can
      // arrive with it): those that arrive are the first ones, in order, and one at least.
      const progress = report['progress'] as number[];
      expect(progress.length).toBeGreaterThanOrEqual(1);
      expect(progress).toEqual([1, 2, 3, 4].slice(0, progress.length));
      expect(report['cancelled']).toBe('aborted');
      expect(report['afterCancel']).toMatchObject({ content: [{ text: 'alive' }] });
    });
  }
});

describe('the toolwire client against an official SDK stdio server', () => {
  it('lists, calls, validates structured content, sees errors, progress and cancellation', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SDK_SERVER],
      stderr: 'pipe',
    });
    let stderr = '';
    const client = new McpClient(
      { name: 'toolwire-interop', version: '1' },
      { protocolEra: 'legacy' },
    );
    const init = await client.connect(transport);
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    expect(init.protocolVersion).toBe('2025-11-25');
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['echo', 'add', 'lying', 'fail', 'progress', 'slow']);
    expect(tools.find((t) => t.name === 'add')?.outputSchema).toMatchObject({
      type: 'object',
      properties: { sum: { type: 'number' } },
    });

    expect(await client.callTool('echo', { message: 'hi' })).toEqual({
      content: [{ type: 'text', text: 'hi' }],
    });
    expect(await client.callTool('add', { a: 1, b: 2 })).toMatchObject({
      structuredContent: { sum: 3 },
    });
    // The SDK server checks its own output and sends an error result instead (toolwire's client
    // rejecting a bad structured result is tested against a scripted server in mcpClient.test.ts).
    expect(await client.callTool('lying')).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining('Output validation error') }],
    });
    expect(await client.callTool('fail')).toEqual({
      content: [{ type: 'text', text: 'it failed' }],
      isError: true,
    });
    // SDK 1.x reports an unknown tool as an isError result, not as -32602.
    expect(await client.callTool('nope', {}, { validateOutput: false })).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining('Tool nope not found') }],
    });

    const progress: number[] = [];
    expect(
      await client.callTool(
        'progress',
        { steps: 4 },
        { onprogress: (p) => progress.push(p.progress) },
      ),
    ).toMatchObject({ content: [{ text: 'done' }] });
    expect(progress).toEqual([1, 2, 3, 4]);

    const controller = new AbortController();
    const slow = client.callTool('slow', {}, { signal: controller.signal });
    await sleep(100);
    controller.abort();
    await expect(slow).rejects.toMatchObject({ code: 'aborted' });
    await sleep(100);
    expect(stderr).toContain('slow: cancelled');
    await client.ping();
    await client.close();
  });

  it('negotiates an older revision the SDK server accepts', async () => {
    const client = new McpClient(
      { name: 'old', version: '1' },
      { protocolEra: 'legacy', protocolVersions: ['2025-03-26'] },
    );
    const init = await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [SDK_SERVER], stderr: 'ignore' }),
    );
    expect(init.protocolVersion).toBe('2025-03-26');
    expect(await client.callTool('echo', { message: 'old' })).toEqual({
      content: [{ type: 'text', text: 'old' }],
    });
    await client.close();
  });

  it('auto era: probes with server/discover, falls back to initialize, speaks 2025-11-25', async () => {
    const client = new McpClient({ name: 'auto', version: '1' }, { protocolEra: 'auto' });
    const init = await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [SDK_SERVER], stderr: 'ignore' }),
    );
    expect(init.protocolVersion).toBe('2025-11-25');
    expect(await client.callTool('echo', { message: 'auto' })).toEqual({
      content: [{ type: 'text', text: 'auto' }],
    });
    await client.close();
  });
});

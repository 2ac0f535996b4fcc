// Interoperability with the official TypeScript SDK (@modelcontextprotocol/sdk 1.x) over HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { McpClient } from '../../src/client.js';
import { createHttpHandler, HttpClientTransport, type HttpHandlerOptions } from '../../src/http.js';
import { serveHttp } from '../../src/node.js';
import { McpServer } from '../../src/server.js';
import { SDK_HTTP_SERVER } from '../support/paths.js';
import { sleep } from '../support/scriptedTransport.js';
import { validateMessage } from '../support/specSchemas.js';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function toolwireServer(options: HttpHandlerOptions = {}) {
  const server = new McpServer({ name: 'toolwire-http', version: '1' });
  server.registerTool(
    'add',
    {
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
    },
    ({ a, b }) => ({
      structuredContent: { sum: a + b },
    }),
  );
  server.registerTool('fail', {}, () => ({
    content: [{ type: 'text', text: 'it failed' }],
    isError: true,
  }));
  server.registerTool('steps', { inputSchema: z.object({ n: z.number() }) }, async ({ n }, ctx) => {
    for (let i = 1; i <= n; i++) {
      ctx.progress(i, { total: n });
      await sleep(10);
    }
    return 'done';
  });
  server.registerTool(
    'wait',
    {},
    (_a, ctx) =>
      new Promise<string>((resolve) =>
        ctx.signal.addEventListener('abort', () => resolve('aborted')),
      ),
  );
  const handler = createHttpHandler(server, { onerror: () => {}, ...options });
  const listener = await serveHttp(handler);
  cleanup.push(
    () => listener.close(),
    () => handler.close({ graceMs: 100 }),
  );
  return { server, handler, url: listener.url, origin: listener.origin };
}

describe('the official SDK client against the toolwire HTTP server', () => {
  for (const stateless of [false, true]) {
    it(`lists, calls, structured content, errors, progress${stateless ? ' (stateless)' : ', cancellation (stateful)'}`, async () => {
      const { url, handler } = await toolwireServer({ stateless });
      const client = new Client({ name: 'sdk', version: '1' });
      const transport = new StreamableHTTPClientTransport(new URL(url));
      await client.connect(transport);
      cleanup.push(() => client.close());
      expect(transport.sessionId === undefined).toBe(stateless);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
        'add',
        'fail',
        'steps',
        'wait',
      ]);
      expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).toMatchObject({
        structuredContent: { sum: 5 },
      });
      expect(await client.callTool({ name: 'fail', arguments: {} })).toMatchObject({
        isError: true,
      });
      await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({
        code: -32602,
      });
      const progress: number[] = [];
      await client.callTool({ name: 'steps', arguments: { n: 3 } }, undefined, {
        onprogress: (p) => progress.push(p.progress),
      });
      expect(progress).toEqual([1, 2, 3]);
      if (!stateless) {
        const controller = new AbortController();
        const slow = client.callTool({ name: 'wait', arguments: {} }, undefined, {
          signal: controller.signal,
        });
        await sleep(50);
        controller.abort();
        await expect(slow).rejects.toThrow();
        await transport.terminateSession();
        expect(handler.sessionCount).toBe(0);
      }
    });
  }
});

describe('the toolwire client against the official SDK HTTP server', () => {
  it('auto era: the 2026 probe is refused, initialize follows on the same endpoint', async () => {
    const child: ChildProcess = spawn(process.execPath, [SDK_HTTP_SERVER], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    cleanup.push(() => void child.kill('SIGKILL'));
    const url = await new Promise<string>((resolve) =>
      child.stdout?.once('data', (c: Buffer) => resolve(c.toString().trim())),
    );
    const client = new McpClient({ name: 'toolwire', version: '1' }, { protocolEra: 'auto' });
    await client.connect(new HttpClientTransport(url));
    cleanup.push(() => client.close());
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(await client.callTool('echo', { message: 'auto' })).toEqual({
      content: [{ type: 'text', text: 'auto' }],
    });
  });

  it('lists, calls, validates structured content, sees errors, progress and cancellation', async () => {
    const child: ChildProcess = spawn(process.execPath, [SDK_HTTP_SERVER], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanup.push(() => void child.kill('SIGKILL'));
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    const url = await new Promise<string>((resolve) =>
      child.stdout?.once('data', (c: Buffer) => resolve(c.toString().trim())),
    );
    const client = new McpClient({ name: 'toolwire', version: '1' }, { protocolEra: 'legacy' });
    await client.connect(new HttpClientTransport(url));
    cleanup.push(() => client.close());
    expect(client.protocolVersion).toBe('2025-11-25');
    expect((await client.listTools()).map((t) => t.name)).toEqual([
      'echo',
      'add',
      'fail',
      'progress',
      'slow',
    ]);
    expect(await client.callTool('echo', { message: 'hi' })).toEqual({
      content: [{ type: 'text', text: 'hi' }],
    });
    expect(await client.callTool('add', { a: 1, b: 2 })).toMatchObject({
      structuredContent: { sum: 3 },
    });
    expect(await client.callTool('fail')).toMatchObject({ isError: true });
    const progress: number[] = [];
    await client.callTool(
      'progress',
      { steps: 3 },
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(progress).toEqual([1, 2, 3]);
    const controller = new AbortController();
    const slow = client.callTool('slow', {}, { signal: controller.signal });
    await sleep(100);
    controller.abort();
    await expect(slow).rejects.toMatchObject({ code: 'aborted' });
    await sleep(100);
    expect(stderr).toContain('slow: cancelled');
  });
});

describe('old clients against the legacy HTTP+SSE endpoint', () => {
  it("works with the official SDK's SSE client transport", async () => {
    const { origin } = await toolwireServer();
    const client = new Client({ name: 'sdk-sse', version: '1' });
    await client.connect(new SSEClientTransport(new URL(`${origin}/sse`)));
    cleanup.push(() => client.close());
    expect(await client.callTool({ name: 'add', arguments: { a: 4, b: 5 } })).toMatchObject({
      structuredContent: { sum: 9 },
    });
  });

  it('a 2024-11-05-only client receives only messages valid for 2024-11-05', async () => {
    const { origin } = await toolwireServer();
    const stream = await fetch(`${origin}/sse`, { headers: { accept: 'text/event-stream' } });
    const reader = stream.body?.getReader();
    if (!reader) throw new Error('no stream');
    const decoder = new TextDecoder();
    let buffer = '';
    const events: Array<{ event: string; data: string }> = [];
    const nextEvent = async (): Promise<{ event: string; data: string }> => {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
          const data = /^data: (.*)$/m.exec(block)?.[1] ?? '';
          events.push({ event, data });
          return { event, data };
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buffer += decoder.decode(value, { stream: true });
      }
    };
    const endpoint = await nextEvent();
    expect(endpoint.event).toBe('endpoint');
    const send = (message: unknown) =>
      fetch(new URL(endpoint.data, origin), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(message),
      });
    const sent: Record<string, string> = {};
    const request = async (id: number, method: string, params: Record<string, unknown>) => {
      sent[id] = method;
      expect((await send({ jsonrpc: '2.0', id, method, params })).status).toBe(202);
      return JSON.parse((await nextEvent()).data) as Record<string, unknown>;
    };
    const init = await request(1, 'initialize', {
      protocolVersion: '2024-11-05',
      capabilities: {},
      clientInfo: { name: 'old', version: '1' },
    });
    expect(init).toMatchObject({ result: { protocolVersion: '2024-11-05' } });
    await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const list = await request(2, 'tools/list', {});
    expect(
      (list['result'] as { tools: Array<Record<string, unknown>> }).tools[0],
    ).not.toHaveProperty('outputSchema');
    const added = await request(3, 'tools/call', { name: 'add', arguments: { a: 1, b: 1 } });
    expect(added).toMatchObject({ result: { content: [{ type: 'text', text: '{"sum":2}' }] } });
    expect(added['result']).not.toHaveProperty('structuredContent');
    const invalid = await request(4, 'tools/call', { name: 'add', arguments: { a: 'x' } });
    expect(invalid).toMatchObject({ error: { code: -32602 } });
    for (const e of events.slice(1)) {
      expect(validateMessage('2024-11-05', JSON.parse(e.data), (id) => sent[id as number])).toEqual(
        [],
      );
    }
    await reader.cancel();
  });
});

import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { McpClient } from '../../src/client.js';
import {
  createHttpHandler,
  HttpClientTransport,
  StreamableHttpClientTransport,
  type HttpHandlerOptions,
} from '../../src/http.js';
import { serveHttp, type HttpListener } from '../../src/node.js';
import { McpServer } from '../../src/server.js';
import { sleep } from '../support/scriptedTransport.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close().catch(() => {});
});

async function start(options: HttpHandlerOptions = {}) {
  const server = new McpServer({ name: 'net', version: '1' });
  server.registerTool('echo', { inputSchema: z.object({ m: z.string() }) }, ({ m }) => m);
  server.registerTool('big', {}, () => 'x'.repeat(100_000));
  server.registerTool('whoami', {}, (_a, ctx) => ctx.identity?.id ?? 'nobody');
  server.registerTool('ask', {}, async (_a, ctx) => {
    const answer = await ctx.elicit({
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    return `hello ${String(answer.content?.['name'])}`;
  });
  server.registerTool(
    'wait',
    {},
    (_a, ctx) =>
      new Promise<string>((resolve) =>
        ctx.signal.addEventListener('abort', () => resolve('aborted')),
      ),
  );
  server.registerTool('work', {}, async (_a, ctx) => {
    for (let i = 1; i <= 3; i++) {
      await sleep(10);
      ctx.progress(i, { total: 3 });
      ctx.log.info(`step ${i}`);
    }
    return 'worked';
  });
  const handler = createHttpHandler(server, { onerror: () => {}, ...options });
  const listener = await serveHttp(handler);
  open.push(listener, handler);
  return { server, handler, listener, url: listener.url };
}

async function client(
  url: string,
  options: ConstructorParameters<typeof McpClient>[1] = {},
  transport = new HttpClientTransport(url),
) {
  const c = new McpClient(
    { name: 'net-client', version: '1' },
    { protocolEra: 'legacy', ...options },
  );
  await c.connect(transport);
  open.push(c);
  return c;
}

function rawPost(
  listener: HttpListener,
  headers: Record<string, string | number>,
  body: (write: (s: string) => void) => void,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: listener.port,
        path: '/mcp',
        method: 'POST',
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          ...headers,
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    body((s) => req.write(s));
    req.end();
  });
}

describe('Node adapter', () => {
  it('sets header and request timeouts (never 0) and binds to 127.0.0.1', async () => {
    const { listener } = await start();
    expect(listener.server.headersTimeout).toBeGreaterThan(0);
    expect(listener.server.requestTimeout).toBeGreaterThan(0);
    expect(listener.origin).toBe(`http://127.0.0.1:${listener.port}`);
    expect(listener.url).toBe(`${listener.origin}/mcp`);
  });

  it('answers 413 for a chunked body over the limit and for a declared length over it, and keeps serving', async () => {
    const { listener, url } = await start({ maxBodyBytes: 2048 });
    expect(
      await rawPost(listener, { 'transfer-encoding': 'chunked' }, (write) => {
        for (let i = 0; i < 100; i++) write('x'.repeat(100));
      }),
    ).toBe(413);
    expect(await rawPost(listener, { 'content-length': 10_000_000 }, () => {})).toBe(413);
    const c = await client(url);
    expect(await c.callTool('echo', { m: 'still serving' })).toMatchObject({
      content: [{ text: 'still serving' }],
    });
  });
});

describe('the toolwire client over Streamable HTTP', () => {
  it('lists, calls, streams progress and logs, and answers an elicitation on the same call', async () => {
    const { url } = await start();
    const logs: string[] = [];
    const c = await client(url, {
      onLog: (m) => logs.push(String(m.data)),
      handlers: { elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) },
    });
    expect(c.protocolVersion).toBe('2025-11-25');
    expect((await c.listTools()).map((t) => t.name)).toContain('ask');
    const progress: number[] = [];
    expect(
      await c.callTool('work', {}, { onprogress: (p) => progress.push(p.progress) }),
    ).toMatchObject({ content: [{ text: 'worked' }] });
    expect(progress).toEqual([1, 2, 3]);
    expect(logs).toEqual(['step 1', 'step 2', 'step 3']);
    expect(await c.callTool('ask')).toMatchObject({ content: [{ text: 'hello Ada' }] });
  });

  it('cancels a call: the server handler is aborted', async () => {
    const { url } = await start();
    const c = await client(url);
    const controller = new AbortController();
    const call = c.callTool('wait', {}, { signal: controller.signal });
    await sleep(50);
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
    expect(await c.callTool('echo', { m: 'after' })).toMatchObject({
      content: [{ text: 'after' }],
    });
  });

  it('receives list_changed on the GET stream and refreshes its cache', async () => {
    const { server, url } = await start();
    const changes: string[][] = [];
    const c = await client(url, {
      onToolsChanged: (tools) => changes.push(tools.map((t) => t.name)),
    });
    await c.listTools();
    await sleep(50); // let the GET stream open
    server.registerTool('added_later', {}, () => 'new');
    for (let i = 0; i < 100 && !changes.at(-1)?.includes('added_later'); i++) await sleep(20);
    expect(changes.at(-1)).toContain('added_later');
  });

  it('opens a new session by itself when the server forgot the old one (404)', async () => {
    const { server, handler, url } = await start();
    const transport = new StreamableHttpClientTransport(url);
    const c = await client(url, {}, transport as unknown as HttpClientTransport);
    const first = transport.sessionId;
    for (const session of server.sessions) await session.close();
    expect(handler.sessionCount).toBe(0);
    expect(await c.callTool('echo', { m: 'again' })).toMatchObject({
      content: [{ text: 'again' }],
    });
    expect(transport.sessionId).toBeDefined();
    expect(transport.sessionId).not.toBe(first);
  });

  it('sends custom headers (authorization) on every request', async () => {
    const { url } = await start({
      authenticate: (r) =>
        r.header('authorization') === 'Bearer good'
          ? { id: 'alice' }
          : { status: 401, headers: {}, body: 'unauthorized' },
    });
    const c = await client(
      url,
      {},
      new HttpClientTransport(url, { headers: () => ({ authorization: 'Bearer good' }) }),
    );
    expect(await c.callTool('whoami')).toMatchObject({ content: [{ text: 'alice' }] });
    const refused = new McpClient({ name: 'x', version: '1' }, { protocolEra: 'legacy' });
    await expect(
      refused.connect(new HttpClientTransport(url, { headers: { authorization: 'Bearer bad' } })),
    ).rejects.toMatchObject({ message: expect.stringContaining('401') });
  });

  it('fails an oversized response cleanly and stays usable', async () => {
    const { url } = await start();
    const c = await client(url, {}, new HttpClientTransport(url, { maxMessageBytes: 10_000 }));
    await expect(c.callTool('big', {}, { validateOutput: false })).rejects.toMatchObject({
      code: 'message-too-large',
    });
    expect(await c.callTool('echo', { m: 'fine' })).toMatchObject({ content: [{ text: 'fine' }] });
  });

  it('resumes a stream the server closed, after the retry delay it announced', async () => {
    const { server, url } = await start({ retryMs: 300 });
    server.registerTool('poll', {}, async (_a, ctx) => {
      ctx.progress(1);
      ctx.closeStream();
      await sleep(20);
      return 'resumed';
    });
    const c = await client(url);
    const started = Date.now();
    expect(await c.callTool('poll', {}, { onprogress: () => {} })).toMatchObject({
      content: [{ text: 'resumed' }],
    });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(3000);
  });

  it('ends the session with DELETE on close', async () => {
    const { handler, url } = await start();
    const c = new McpClient({ name: 'bye', version: '1' }, { protocolEra: 'legacy' });
    await c.connect(new HttpClientTransport(url));
    expect(handler.sessionCount).toBe(1);
    await c.close();
    expect(handler.sessionCount).toBe(0);
  });
});

describe('fallback to the 2024-11-05 HTTP+SSE transport', () => {
  it('uses HTTP+SSE when the URL is a legacy endpoint', async () => {
    const { listener } = await start();
    const transport = new HttpClientTransport(`${listener.origin}/sse`);
    const c = await client(
      `${listener.origin}/sse`,
      { handlers: { elicitation: () => ({ action: 'accept', content: { name: 'Old' } }) } },
      transport,
    );
    expect(transport.kind).toBe('http+sse');
    expect(await c.callTool('echo', { m: 'legacy' })).toMatchObject({
      content: [{ text: 'legacy' }],
    });
    expect(await c.callTool('ask')).toMatchObject({ content: [{ text: 'hello Old' }] });
  });
});

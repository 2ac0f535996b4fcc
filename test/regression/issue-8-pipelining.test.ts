/**
 * Issue 8: a client that pipelined more than 64 requests on one stdio connection got
 * `-32000 Server busy` for most of them (5,000 pipelined calls: 4,424 refused), where every peer
 * library queues them. The cap on handlers running at once stays; further requests wait in a
 * bounded queue, and beyond it the transport applies backpressure (stdio stops reading; HTTP
 * answers 429 with Retry-After), so a well-behaved client that pipelines never sees an error.
 */
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import { createHttpHandler, HttpClientTransport } from '../../src/http.js';
import { McpServer } from '../../src/server.js';
import { StdioServerTransport } from '../../src/stdio.js';
import { createLinkedPair } from '../../src/transports/memory.js';
import { openSession, post } from '../support/httpHarness.js';
import { PIPELINE_SERVER } from '../support/paths.js';

const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'p', version: '1' },
  },
};
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const call = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'slow', arguments: { n: id } },
});
/** A call of the in-process servers' `slow`, which takes no arguments. */
const bare = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'slow' },
});

interface Reply {
  id: number;
  result?: { structuredContent: { n: number; mostRunning: number } };
  error?: unknown;
}

/** Reads newline-delimited replies until `count` have arrived (or the time is up). */
function collect(stream: NodeJS.ReadableStream, count: number, ms: number): Promise<Reply[]> {
  return new Promise((resolve, reject) => {
    const replies: Reply[] = [];
    let buffered = '';
    const timer = setTimeout(
      () => reject(new Error(`only ${replies.length} of ${count} replies in ${ms} ms`)),
      ms,
    );
    stream.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        const message = JSON.parse(line) as Reply & { method?: string };
        if (message.method !== undefined || message.id === 0) continue;
        replies.push(message);
        if (replies.length === count) {
          clearTimeout(timer);
          resolve(replies);
        }
      }
    });
  });
}

describe('a client that pipelines is queued, never refused', () => {
  it('answers 5,000 calls written at once to a stdio server process, with 64 running at most', async () => {
    const child = spawn(process.execPath, [PIPELINE_SERVER], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    try {
      const lines: unknown[] = [initialize, initialized];
      for (let id = 1; id <= 5000; id++) lines.push(call(id));
      const replies = collect(child.stdout, 5000, 60_000);
      child.stdin.write(lines.map((m) => JSON.stringify(m)).join('\n') + '\n');
      const all = await replies;
      expect(all.filter((r) => r.error !== undefined)).toEqual([]);
      expect(new Set(all.map((r) => r.result?.structuredContent.n)).size).toBe(5000);
      const mostRunning = Math.max(...all.map((r) => r.result?.structuredContent.mostRunning ?? 0));
      expect(mostRunning).toBeLessThanOrEqual(64);
      expect(mostRunning).toBeGreaterThan(1);
    } finally {
      child.kill();
    }
  }, 90_000);

  it('stops handing over requests mid-chunk when the queue is full, then resumes (small limits)', async () => {
    const server = new McpServer({ name: 'tight', version: '1' }, { maxInFlight: 2, maxQueued: 8 });
    let running = 0;
    let mostRunning = 0;
    server.registerTool('slow', {}, async () => {
      running++;
      mostRunning = Math.max(mostRunning, running);
      await new Promise((resolve) => setTimeout(resolve, 1));
      running--;
      return 'ok';
    });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let paused = 0;
    const originalPause = stdin.pause.bind(stdin);
    stdin.pause = () => {
      paused++;
      return originalPause();
    };
    await server.connect(new StdioServerTransport({ stdin, stdout }));
    const replies = collect(stdout, 300, 30_000);
    // One chunk holding 300 calls: far more than may wait (8), so the decoder must hold the rest.
    const lines: unknown[] = [initialize, initialized];
    for (let id = 1; id <= 300; id++) lines.push(bare(id));
    stdin.write(Buffer.from(lines.map((m) => JSON.stringify(m)).join('\n') + '\n'));
    const all = await replies;
    expect(all.filter((r) => r.error !== undefined)).toEqual([]);
    expect(all.map((r) => r.id).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 300 }, (_, i) => i + 1),
    );
    expect(mostRunning).toBe(2);
    expect(paused).toBeGreaterThan(0); // backpressure reached the stream
    await server.close();
  });

  it('refuses beyond the queue, clearly, on a transport that cannot stop reading', async () => {
    const server = new McpServer({ name: 'mem', version: '1' }, { maxInFlight: 1, maxQueued: 2 });
    const release: Array<() => void> = [];
    server.registerTool('slow', {}, () => new Promise<string>((r) => release.push(() => r('ok'))));
    const [client, serverEnd] = createLinkedPair();
    const received: Reply[] = [];
    client.onmessage = (m) => received.push(m as Reply);
    await server.connect(serverEnd);
    await client.start();
    await client.send(initialize as never);
    await client.send(initialized as never);
    for (let id = 1; id <= 4; id++) await client.send(bare(id) as never);
    await new Promise((r) => setTimeout(r, 20));
    expect(received.find((r) => r.id === 4)).toMatchObject({
      error: {
        code: -32000,
        message: expect.stringMatching(/already waiting on this connection; retry later/),
      },
    });
    for (const r of release.splice(0)) r();
    await new Promise((r) => setTimeout(r, 20));
    for (const r of release.splice(0)) r();
    await new Promise((r) => setTimeout(r, 20));
    for (const r of release.splice(0)) r();
    await new Promise((r) => setTimeout(r, 20));
    expect(received.filter((r) => r.id !== 0 && r.result).map((r) => r.id)).toEqual([1, 2, 3]);
    await server.close();
  });

  it('answers 429 with Retry-After over HTTP once the session queue is full, and serves after', async () => {
    const server = new McpServer({ name: 'http', version: '1' }, { maxInFlight: 1, maxQueued: 2 });
    const release: Array<() => void> = [];
    server.registerTool('slow', {}, () => new Promise<string>((r) => release.push(() => r('ok'))));
    const handler = createHttpHandler(server, { sseAfterMs: 60_000 });
    const session = await openSession(handler);
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const pending = [1, 2, 3].map((id) => post(handler, bare(id), headers));
    await new Promise((r) => setTimeout(r, 20));
    const refused = await post(handler, bare(4), headers);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ error: { code: -32000 } });
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 10));
      for (const r of release.splice(0)) r();
    }
    const statuses = await Promise.all(pending.map(async (p) => (await p).status));
    expect(statuses).toEqual([200, 200, 200]);
    const again = post(handler, bare(5), headers);
    await new Promise((r) => setTimeout(r, 10));
    for (const r of release.splice(0)) r();
    expect((await again).status).toBe(200);
    await handler.close({ graceMs: 0 });
  });
});

describe('a client that pipelines over HTTP', () => {
  it('is told to wait (429 Retry-After) and sends again, so every call succeeds', async () => {
    const server = new McpServer({ name: 'http', version: '1' }, { maxInFlight: 1, maxQueued: 2 });
    server.registerTool('slow', {}, async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return 'ok';
    });
    const handler = createHttpHandler(server);
    const statuses: number[] = [];
    const client = new McpClient({ name: 'pipeliner', version: '1' }, { protocolEra: 'legacy' });
    await client.connect(
      new HttpClientTransport('http://127.0.0.1:3000/mcp', {
        fetch: async (url, init) => {
          const response = await handler.fetch(new Request(url, init));
          statuses.push(response.status);
          return response;
        },
      }),
    );
    const results = await Promise.all(
      Array.from({ length: 8 }, () => client.callTool('slow', {}, { timeoutMs: 20_000 })),
    );
    expect(results.map((r) => r.content)).toEqual(
      Array.from({ length: 8 }, () => [{ type: 'text', text: 'ok' }]),
    );
    expect(statuses).toContain(429); // the queue did fill: the retries were needed
    await client.close();
    await handler.close({ graceMs: 0 });
  }, 30_000);
});

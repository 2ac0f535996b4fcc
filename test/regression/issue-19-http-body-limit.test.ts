/**
 * Issue 19, HTTP: a chunked request body over the size limit got its 413 only about half the
 * time. Reading stopped at the limit, the 413 was written with `Connection: close`, and Node then
 * destroyed the socket with the rest of the body unread in the kernel's receive buffer: that
 * sends a TCP reset, and a client still sending (as every client of a large body is) often lost
 * the reply with it (ECONNRESET). A `Content-Length` over the limit was answered before any of
 * the body was sent, so it was spared. Now the Node adapter closes such a connection lingering:
 * the reply is written, the sending side is shut (FIN), and what the client still sends is read
 * and thrown away for a bounded time and amount before the socket is closed. The same holds on
 * the 2024-11-05 HTTP+SSE endpoint and for a fetch handler served by `serveHttp` (the console's
 * own HTTP server, whose 1 MiB limit cancelled the request body, which destroyed the socket).
 */
import { request } from 'node:http';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleGuard } from '../../src/cli/console/consoleGuard.js';
import { consoleHandler } from '../../src/cli/console/consoleHandler.js';
import { ConsoleSession } from '../../src/cli/console/consoleSession.js';
import { createHttpHandler, HttpClientTransport } from '../../src/http.js';
import { McpClient } from '../../src/client.js';
import { serveHttp, type HttpListener } from '../../src/node.js';
import { McpServer } from '../../src/server.js';

const LIMIT = 2048;
const RUNS = 20;
const TOKEN = 'c'.repeat(43);

/** What one raw POST got back: the status of the reply, or what happened instead. */
interface Outcome {
  readonly status?: number;
  readonly error?: string;
}

/**
 * The client, run in a worker thread: on the test's own thread it could not run while the server
 * answers, and it is that overlap (the client still sending when the server closes) that lost
 * the reply. Each of `runs` POSTs sends a body of `chunks` chunks of `chunkBytes` (chunked, or
 * with its length declared when `declared` is set), one
 * chunk after the other whatever the server answers meanwhile (as a client streaming a large
 * upload does), then its last chunk, and reads everything the server sends until the connection
 * ends. Bounded: at most `chunks` writes, and a socket is destroyed after 10 s whatever happens.
 */
const CLIENT = `
const { connect } = require('node:net');
const { parentPort, workerData } = require('node:worker_threads');
const { port, path, headers, chunks, chunkBytes, runs, declared } = workerData;
function post() {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = '';
    let error;
    const timer = setTimeout(() => { error ??= 'timed out'; socket.destroy(); }, 10000);
    socket.setEncoding('latin1');
    socket.on('data', (text) => { received += text; });
    socket.on('error', (e) => { error ??= e.code ?? e.message; });
    socket.on('close', () => {
      clearTimeout(timer);
      const status = /^HTTP\\/1\\.1 (\\d{3}) /.exec(received)?.[1];
      resolve({ ...(status ? { status: Number(status) } : {}), ...(error ? { error } : {}) });
    });
    const framing = declared
      ? 'content-length: ' + chunks * chunkBytes
      : 'transfer-encoding: chunked';
    const head = 'POST ' + path + ' HTTP/1.1\\r\\nhost: 127.0.0.1:' + port + '\\r\\n' +
      framing + '\\r\\n' +
      Object.entries(headers).map(([n, v]) => n + ': ' + v + '\\r\\n').join('') + '\\r\\n';
    const data = 'x'.repeat(chunkBytes);
    const chunk = declared ? data : chunkBytes.toString(16) + '\\r\\n' + data + '\\r\\n';
    let sent = 0;
    const next = () => {
      if (!socket.writable) return;
      if (sent === chunks) return void (declared || socket.write('0\\r\\n\\r\\n'));
      sent++;
      socket.write(chunk, (e) => { if (!e) next(); });
    };
    socket.once('connect', () => socket.write(head, (e) => { if (!e) next(); }));
  });
}
(async () => {
  const outcomes = [];
  for (let i = 0; i < runs; i++) outcomes.push(await post());
  parentPort.postMessage(outcomes);
})();
`;

/** Runs `RUNS` chunked POSTs one after the other from a worker thread; their outcomes. */
async function chunkedPosts(options: {
  port: number;
  path: string;
  headers: Record<string, string>;
  chunks: number;
  chunkBytes: number;
  declared?: boolean;
}): Promise<Outcome[]> {
  const worker = new Worker(CLIENT, { eval: true, workerData: { ...options, runs: RUNS } });
  try {
    return await new Promise<Outcome[]>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the client exited (${code})`)));
    });
  } finally {
    await worker.terminate();
  }
}

const MCP_HEADERS = {
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
};

describe('a chunked body over the limit is answered 413 every time', () => {
  let listener: HttpListener;
  let handler: ReturnType<typeof createHttpHandler>;

  beforeAll(async () => {
    const server = new McpServer({ name: 'limit', version: '1' });
    server.registerTool('echo', {}, () => 'still serving');
    handler = createHttpHandler(server, { maxBodyBytes: LIMIT, onerror: () => {} });
    listener = await serveHttp(handler);
  });
  afterAll(async () => {
    await listener?.close();
    await handler?.close();
  });

  it('on the Streamable HTTP endpoint, and keeps serving', async () => {
    const outcomes = await chunkedPosts({
      port: listener.port,
      path: '/mcp',
      headers: MCP_HEADERS,
      chunks: 200,
      chunkBytes: 1024,
    });
    expect(outcomes.filter((o) => o.status !== 413)).toEqual([]);
    const client = new McpClient({ name: 'after', version: '1' }, { protocolEra: 'legacy' });
    await client.connect(new HttpClientTransport(listener.url));
    expect(await client.callTool('echo')).toMatchObject({
      content: [{ text: 'still serving' }],
    });
    await client.close();
  });

  it('for a declared Content-Length over the limit when the client sends the body anyway', async () => {
    const outcomes = await chunkedPosts({
      port: listener.port,
      path: '/mcp',
      headers: MCP_HEADERS,
      chunks: 200,
      chunkBytes: 1024,
      declared: true,
    });
    expect(outcomes.filter((o) => o.status !== 413)).toEqual([]);
  });

  it('on the 2024-11-05 HTTP+SSE messages endpoint', async () => {
    // The legacy session lives as long as its event stream: open it, read the `endpoint` event.
    const stream = request({
      host: '127.0.0.1',
      port: listener.port,
      path: '/sse',
      headers: { accept: 'text/event-stream' },
    });
    const endpoint = await new Promise<string>((resolve, reject) => {
      stream.on('error', reject);
      stream.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (data: string) => {
          text += data;
          const found = /event: endpoint\ndata: (\S+)\n/.exec(text)?.[1];
          if (found) resolve(found);
        });
      });
      stream.end();
    });
    try {
      const outcomes = await chunkedPosts({
        port: listener.port,
        path: endpoint,
        headers: { 'content-type': 'application/json' },
        chunks: 200,
        chunkBytes: 1024,
      });
      expect(outcomes.filter((o) => o.status !== 413)).toEqual([]);
    } finally {
      stream.destroy();
    }
  });
});

describe('a fetch handler on serveHttp (the web-standard path)', () => {
  let listener: HttpListener;
  let handler: ReturnType<typeof createHttpHandler>;

  beforeAll(async () => {
    const server = new McpServer({ name: 'limit', version: '1' });
    handler = createHttpHandler(server, { maxBodyBytes: LIMIT, onerror: () => {} });
    // handler.fetch reads the body as a web stream and cancels it at the limit.
    listener = await serveHttp((request) => handler.fetch(request));
  });
  afterAll(async () => {
    await listener?.close();
    await handler?.close();
  });

  it('answers 413 for a chunked body over the limit every time', async () => {
    const outcomes = await chunkedPosts({
      port: listener.port,
      path: '/mcp',
      headers: MCP_HEADERS,
      chunks: 200,
      chunkBytes: 1024,
    });
    expect(outcomes.filter((o) => o.status !== 413)).toEqual([]);
  });
});

describe("the console's HTTP server (a fetch handler on serveHttp)", () => {
  let listener: HttpListener;
  let session: ConsoleSession;
  let pageSession = '';

  beforeAll(async () => {
    session = new ConsoleSession();
    const guard = new ConsoleGuard(TOKEN);
    listener = await serveHttp(consoleHandler(session, guard, { html: '', files: new Map() }));
    guard.listening('127.0.0.1', listener.port);
    // Signed in as its page is: the one-time token traded for a session.
    pageSession = guard.signIn(TOKEN) ?? '';
  });
  afterAll(async () => {
    await session?.close();
    await listener?.close();
  });

  it('answers its 413 for a chunked body over its 1 MiB limit every time', async () => {
    const outcomes = await chunkedPosts({
      port: listener.port,
      path: '/api/calls/none/cancel',
      headers: {
        authorization: `Bearer ${pageSession}`,
        origin: `http://127.0.0.1:${listener.port}`,
        'content-type': 'application/json',
      },
      chunks: 512,
      chunkBytes: 16 * 1024,
    });
    expect(outcomes.filter((o) => o.status !== 413)).toEqual([]);
  });
});

/**
 * Issue 9, HTTP: during shutdown, the 503 answers did not carry `Connection: close`, so a client
 * kept sending on a connection the process was about to drop. Every 503 of a shutdown now does,
 * through `handler.fetch` and over Node's `http` server alike.
 */
import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createHttpHandler } from '../../src/http.js';
import { serveHttp } from '../../src/node.js';
import { McpServer } from '../../src/server.js';
import { getStream, initializeMessage, openSession, post } from '../support/httpHarness.js';

function handlerOf() {
  const server = new McpServer({ name: 'shutdown', version: '1' });
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  server.registerTool('hold', {}, async () => {
    await held;
    return 'released';
  });
  return { handler: createHttpHandler(server, { onerror: () => {} }), release };
}

const hold = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'hold' } };

describe('503 answers during shutdown close the connection', () => {
  it('through handler.fetch: POST, GET, a new session and the legacy endpoint', async () => {
    const { handler, release } = handlerOf();
    const session = await openSession(handler);
    const inFlight = post(handler, hold, { 'mcp-session-id': session });
    await new Promise((r) => setTimeout(r, 20));
    const closed = handler.close({ graceMs: 5000 });
    const answers = [
      await post(
        handler,
        { jsonrpc: '2.0', id: 6, method: 'tools/list' },
        { 'mcp-session-id': session },
      ),
      await getStream(handler, { 'mcp-session-id': session }),
      await post(handler, initializeMessage()),
      await getStream(handler, {}, '/sse'),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get('connection')).toBe('close');
      expect(((await answer.json()) as { error: { code: number } }).error.code).toBe(-32001);
    }
    release();
    expect((await inFlight).status).toBe(200);
    await closed;
  });

  it('over Node http: the response says Connection: close and the socket is closed', async () => {
    const { handler, release } = handlerOf();
    const listener = await serveHttp(handler);
    try {
      const host = `127.0.0.1:${listener.port}`;
      const headers = {
        host,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      };
      const init = await fetch(listener.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(initializeMessage()),
      });
      const session = init.headers.get('mcp-session-id') ?? '';
      await init.text();
      const inFlight = fetch(listener.url, {
        method: 'POST',
        headers: { ...headers, 'mcp-session-id': session },
        body: JSON.stringify(hold),
      });
      await new Promise((r) => setTimeout(r, 50));
      const closed = handler.close({ graceMs: 5000 });
      const answer = await new Promise<{
        status?: number;
        connection?: string;
        socketClosed: boolean;
      }>((resolve, reject) => {
        const req = request(listener.url, {
          method: 'POST',
          headers: { ...headers, 'mcp-session-id': session },
          // Keep-alive: a `Connection: close` in the answer is the server's own decision.
          agent: new Agent({ keepAlive: true }),
        });
        req.on('response', (res) => {
          res.resume();
          res.on('end', () =>
            setTimeout(
              () =>
                resolve({
                  status: res.statusCode,
                  connection: res.headers.connection,
                  socketClosed: req.socket?.destroyed ?? true,
                }),
              50,
            ),
          );
        });
        req.on('error', reject);
        req.end(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }));
      });
      expect(answer).toEqual({ status: 503, connection: 'close', socketClosed: true });
      release();
      expect((await inFlight).status).toBe(200);
      await closed;
    } finally {
      release();
      await listener.close();
    }
  });
});

/**
 * @module Revision 2026-07-28 over a real Node HTTP server: a request whose client closes the
 * connection is cancelled (the Node adapter sees the response close unfinished), a request
 * answered in JSON is not, and a client that stops reading a request's stream holds the server
 * to a bounded backlog (progress replaced by the latest, log messages dropped beyond a bound).
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpHandler } from '../../src/http.js';
import { serveHttp, type HttpListener } from '../../src/node.js';
import { McpServer } from '../../src/server.js';
import { sleep } from '../support/scriptedTransport.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

let listener: HttpListener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

async function serve() {
  const server = new McpServer({ name: 'node26', version: '1' });
  const aborted: string[] = [];
  server.registerTool('wait', {}, (_args, { signal }) => {
    return new Promise<string>((resolve) => {
      const timer = setTimeout(() => resolve('finished'), 5_000);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        aborted.push(String(signal.reason));
        resolve('aborted');
      });
    });
  });
  server.registerTool('quick', {}, () => 'ok');
  listener = await serveHttp(createHttpHandler(server, { onerror: () => {} }));
  return { url: new URL(listener.url), aborted };
}

/** POSTs a 2026 tools/call of `name` with `meta` (headers and body agreeing); returns the request. */
function postCall(url: URL, name: string, meta: Record<string, unknown> = META) {
  const req = httpRequest(url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
  });
  req.on('error', () => {});
  req.end(
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, _meta: meta } }),
  );
  return req;
}

/** POSTs a 2026 tools/call; its response body goes to `onResponse`. Returns the request. */
function callTool(url: URL, name: string, onResponse: (body: string) => void) {
  const req = postCall(url, name);
  req.on('response', (res) => {
    let text = '';
    res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    res.on('end', () => onResponse(text));
  });
  return req;
}

describe('2026-07-28 over node:http', () => {
  it('cancels a request whose client closed the connection', async () => {
    const { url, aborted } = await serve();
    const req = callTool(url, 'wait', () => {});
    await sleep(100);
    expect(aborted).toEqual([]);
    req.destroy();
    const deadline = Date.now() + 2_000;
    while (aborted.length === 0 && Date.now() < deadline) await sleep(10);
    expect(aborted).toHaveLength(1);
    expect(aborted[0]).toMatch(/closed the request/);
  });

  it('does not cancel a request that was answered', async () => {
    const { url, aborted } = await serve();
    const body = await new Promise<string>((resolve) => callTool(url, 'quick', resolve));
    expect(JSON.parse(body)).toMatchObject({ id: 1, result: { resultType: 'complete' } });
    await sleep(50);
    expect(aborted).toEqual([]);
  });
});

describe('a 2026 client that stops reading its stream', () => {
  it('gets the latest progress, at most the bound of log messages, and its response last', async () => {
    const server = new McpServer({ name: 'chatty', version: '1' });
    let sent = 0;
    let finished = false;
    const text = 'x'.repeat(2_000);
    const PROGRESS = 10_000;
    const LOGS = 2_000;
    server.registerTool('chatty', {}, async (_args, ctx) => {
      for (let i = 1; i <= PROGRESS; i++) {
        ctx.progress(i, { total: PROGRESS, message: text });
        if (i <= LOGS) ctx.log.info(text);
        sent++;
        if (i % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      finished = true;
      return 'done';
    });
    const reports: string[] = [];
    listener = await serveHttp(
      createHttpHandler(server, { onerror: (error) => reports.push(String(error)) }),
    );
    const req = postCall(new URL(listener.url), 'chatty', {
      ...META,
      progressToken: 'p',
      'io.modelcontextprotocol/logLevel': 'info',
    });
    const response = new Promise<IncomingMessage>((resolve) => req.on('response', resolve));
    const res = await response;
    res.pause(); // the client stops reading: ~30 MB of notifications are coming
    for (let waited = 0; !finished && waited < 20_000; waited += 20) await sleep(20);
    expect(finished).toBe(true);
    expect(sent).toBe(PROGRESS);
    let received = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (received += chunk));
    const ended = new Promise((resolve) => res.on('end', resolve));
    res.resume();
    await ended;
    const messages = received
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
    const progress = messages.filter((m) => m['method'] === 'notifications/progress');
    const logs = messages.filter((m) => m['method'] === 'notifications/message');
    // What reached the socket before it filled, then one progress per drain at most.
    expect(progress.length).toBeLessThan(PROGRESS / 2);
    expect(progress.at(-1)).toMatchObject({ params: { progress: PROGRESS, total: PROGRESS } });
    expect(logs.length).toBeLessThan(LOGS);
    expect(messages.at(-1)).toMatchObject({
      id: 1,
      result: { content: [{ type: 'text', text: 'done' }] },
    });
    // The client hears how many log messages it missed, before the response.
    expect(messages.at(-2)).toMatchObject({
      method: 'notifications/message',
      params: {
        level: 'warning',
        data: expect.stringMatching(/^\d+ log message\(s\) were dropped/),
      },
    });
    expect(reports).toEqual([]);
  }, 30_000);
});

describe('2026-07-28 through the web handler', () => {
  it('ends a listen stream whose request signal aborts, though nobody cancels its body', async () => {
    const server = new McpServer({ name: 'web26', version: '1' });
    const handler = createHttpHandler(server, { onerror: () => {} });
    const controller = new AbortController();
    const response = await handler.fetch(
      new Request('http://127.0.0.1:3000/mcp', {
        method: 'POST',
        signal: controller.signal,
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'subscriptions/listen',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'subscriptions/listen',
          params: { notifications: { toolsListChanged: true }, _meta: META },
        }),
      }),
    );
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const listens = (server as unknown as { listens: { size: number } }).listens;
    expect(listens.size).toBe(1);
    // The acknowledgement opened the stream; the client then goes (its runtime aborts the
    // request's signal) and the body is left as it is.
    controller.abort();
    for (let waited = 0; listens.size > 0 && waited < 2_000; waited += 10) await sleep(10);
    expect(listens.size).toBe(0);
  });
});

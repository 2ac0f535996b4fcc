import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  EventReader,
  initializeMessage,
  openSession,
  post,
  postHeaders,
  BASE,
} from '../../../../test/support/httpHarness.js';
import { sleep } from '../../../../test/support/scriptedTransport.js';
import { createHttpHandler, type HttpHandlerOptions } from '../../../http.js';
import { McpServer } from '../../../server.js';

function setup(options: HttpHandlerOptions = {}) {
  const server = new McpServer({ name: 'http', version: '1' });
  server.registerTool('echo', { inputSchema: z.object({ m: z.string() }) }, ({ m }) => m);
  server.registerTool(
    'steps',
    { inputSchema: z.object({ n: z.number(), delayMs: z.number() }) },
    async ({ n, delayMs }, ctx) => {
      for (let i = 1; i <= n; i++) {
        await new Promise((r) => setTimeout(r, delayMs));
        ctx.progress(i, { total: n });
      }
      return `did ${n}`;
    },
  );
  server.registerTool('poll', {}, async (_a, ctx) => {
    ctx.progress(1);
    ctx.closeStream();
    await new Promise((r) => setTimeout(r, 60));
    ctx.progress(2);
    return 'after the poll';
  });
  const handler = createHttpHandler(server, { retryMs: 50, onerror: () => {}, ...options });
  return { server, handler };
}

const call = (
  id: number | string,
  name: string,
  args: Record<string, unknown> = {},
  meta?: Record<string, unknown>,
) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
});

describe('Streamable HTTP: request checks', () => {
  it('refuses a bad Origin or a non-loopback Host with 403 and an id-less JSON-RPC error', async () => {
    const { handler } = setup();
    const bad: Array<Record<string, string>> = [
      { origin: 'http://evil.example.com' },
      { host: 'evil.example.com' },
      { host: 'evil.example.com', origin: 'http://evil.example.com' },
    ];
    for (const headers of bad) {
      const response = await post(handler, initializeMessage(), headers);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({
        jsonrpc: '2.0',
        error: { code: -32600, message: expect.stringMatching(/not allowed/) },
      });
    }
    for (const host of ['localhost:3000', '127.0.0.1', '[::1]:8080']) {
      expect(
        (await post(handler, initializeMessage(), { host, origin: `http://${host}` })).status,
      ).toBe(200);
    }
  });

  it('accepts configured hosts and origins', async () => {
    const { handler } = setup({
      origins: { allowedHosts: ['mcp.example.com'], allowedOrigins: ['https://app.example.com'] },
    });
    expect((await post(handler, initializeMessage(), { host: 'mcp.example.com' })).status).toBe(
      200,
    );
    expect(
      (
        await post(handler, initializeMessage(), {
          host: 'mcp.example.com',
          origin: 'https://app.example.com',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await post(handler, initializeMessage(), {
          host: 'mcp.example.com',
          origin: 'https://evil.example.com',
        })
      ).status,
    ).toBe(403);
    expect((await post(handler, initializeMessage(), { host: '127.0.0.1' })).status).toBe(403);
  });

  it('answers 406, 415, 400 and 413 for bad Accept, Content-Type, version and size', async () => {
    const { handler } = setup({ maxBodyBytes: 1024 });
    expect((await post(handler, initializeMessage(), { accept: 'application/json' })).status).toBe(
      406,
    );
    expect((await post(handler, initializeMessage(), { accept: 'text/event-stream' })).status).toBe(
      406,
    );
    expect(
      (await post(handler, initializeMessage(), { 'content-type': 'text/plain' })).status,
    ).toBe(415);
    expect(
      (await post(handler, initializeMessage(), { 'mcp-protocol-version': '1999-01-01' })).status,
    ).toBe(400);
    const big = JSON.stringify({ ...initializeMessage(), pad: 'x'.repeat(5000) });
    expect((await post(handler, big)).status).toBe(413);
    // No Content-Length at all (a streamed body): counted as it arrives.
    const chunks = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode('x'.repeat(500)));
        c.close();
      },
    });
    const streamed = await handler.fetch(
      new Request(`${BASE}/mcp`, {
        method: 'POST',
        headers: postHeaders(),
        body: chunks,
        duplex: 'half',
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    // A Content-Length that claims more than the limit is refused before reading.
    expect((await post(handler, '{}', { 'content-length': '999999' })).status).toBe(413);
    expect((await post(handler, '{"jsonrpc":')).status).toBe(400);
    expect(await (await post(handler, '{"jsonrpc":')).json()).toMatchObject({
      error: { code: -32700 },
    });
    expect((await post(handler, `{"a":${'['.repeat(70)}${']'.repeat(70)}}`)).status).toBe(400);
  });

  it('answers other methods with 405 and unknown paths with 404', async () => {
    const { handler } = setup();
    const put = await handler.fetch(
      new Request(`${BASE}/mcp`, { method: 'PUT', headers: { host: '127.0.0.1' } }),
    );
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE');
    expect((await post(handler, initializeMessage(), {}, '/elsewhere')).status).toBe(404);
  });
});

describe('Streamable HTTP: sessions', () => {
  it('issues random visible-ASCII session ids and answers 400 without one, 404 for an unknown one', async () => {
    const { handler } = setup();
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add(await openSession(handler));
    expect(ids.size).toBe(5);
    for (const id of ids) expect(id).toMatch(/^[\x21-\x7e]{32,}$/);
    expect((await post(handler, call(2, 'echo', { m: 'x' }))).status).toBe(400);
    expect(
      (await post(handler, call(2, 'echo', { m: 'x' }), { 'mcp-session-id': 'nope' })).status,
    ).toBe(404);
  });

  it('answers notifications and responses with 202 and no body', async () => {
    const { handler } = setup();
    const session = await openSession(handler);
    const response = await post(
      handler,
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      { 'mcp-session-id': session },
    );
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
  });

  it('answers a quick request in JSON; only the initialize response names the session', async () => {
    const { handler } = setup();
    const session = await openSession(handler);
    const response = await post(handler, call(2, 'echo', { m: 'hi' }), {
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-11-25',
    });
    expect(response.headers.get('content-type')).toBe('application/json');
    // The spec puts MCP-Session-Id on the InitializeResult's response; clients send it back.
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: { content: [{ type: 'text', text: 'hi' }] },
    });
  });

  it('ends a session on DELETE; later requests get 404', async () => {
    const { handler } = setup();
    const session = await openSession(handler);
    const deleted = await handler.fetch(
      new Request(`${BASE}/mcp`, {
        method: 'DELETE',
        headers: { host: '127.0.0.1', 'mcp-session-id': session },
      }),
    );
    expect(deleted.status).toBe(200);
    expect(
      (await post(handler, call(2, 'echo', { m: 'x' }), { 'mcp-session-id': session })).status,
    ).toBe(404);
    expect(handler.sessionCount).toBe(0);
  });

  it('binds a session to the principal that created it', async () => {
    const { handler } = setup({
      authenticate: (r) => ({ id: r.header('authorization') ?? 'anonymous' }),
    });
    const session = await openSession(handler, '2025-11-25', { authorization: 'alice' });
    expect(
      (
        await post(handler, call(2, 'echo', { m: 'x' }), {
          'mcp-session-id': session,
          authorization: 'alice',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await post(handler, call(3, 'echo', { m: 'x' }), {
          'mcp-session-id': session,
          authorization: 'mallory',
        })
      ).status,
    ).toBe(404);
  });

  it('can refuse a request through authenticate', async () => {
    const { handler } = setup({
      authenticate: () => ({ status: 401, headers: { 'www-authenticate': 'Bearer' }, body: 'no' }),
    });
    const response = await post(handler, initializeMessage());
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('caps live sessions with 503', async () => {
    const { handler } = setup({ maxSessions: 2 });
    await openSession(handler);
    await openSession(handler);
    const third = await post(handler, initializeMessage());
    expect(third.status).toBe(503);
    expect(third.headers.get('retry-after')).toBe('5');
  });

  it('reaps idle sessions', async () => {
    const { handler } = setup({ sessionIdleMs: 50 });
    const session = await openSession(handler);
    // The reaper runs at least every second; at the cap it also reaps before refusing.
    await sleep(1200);
    expect(
      (await post(handler, call(2, 'echo', { m: 'x' }), { 'mcp-session-id': session })).status,
    ).toBe(404);
  });

  it('two clients using the same request ids each get only their own responses', async () => {
    const { handler } = setup();
    const [a, b] = [await openSession(handler), await openSession(handler)];
    const [ra, rb] = await Promise.all([
      post(handler, call(7, 'echo', { m: 'for a' }), { 'mcp-session-id': a }),
      post(handler, call(7, 'echo', { m: 'for b' }), { 'mcp-session-id': b }),
    ]);
    expect(await ra.json()).toMatchObject({ id: 7, result: { content: [{ text: 'for a' }] } });
    expect(await rb.json()).toMatchObject({ id: 7, result: { content: [{ text: 'for b' }] } });
  });

  it('two clients using the same request id and progress token each get only their own progress', async () => {
    const { handler } = setup();
    const [a, b] = [await openSession(handler), await openSession(handler)];
    const [ra, rb] = await Promise.all([
      post(handler, call(1, 'steps', { n: 2, delayMs: 5 }, { progressToken: 'same' }), {
        'mcp-session-id': a,
      }),
      post(handler, call(1, 'steps', { n: 4, delayMs: 5 }, { progressToken: 'same' }), {
        'mcp-session-id': b,
      }),
    ]);
    const collect = async (response: Response) => {
      const events = new EventReader(response);
      const seen: unknown[] = [];
      for (;;) {
        const message = await events.nextMessage();
        seen.push(message);
        if ('result' in message) return seen;
      }
    };
    const [seenA, seenB] = await Promise.all([collect(ra), collect(rb)]);
    const progressOf = (seen: unknown[]) =>
      seen.flatMap((m) =>
        (m as { method?: string }).method === 'notifications/progress'
          ? [(m as { params: { progress: number } }).params.progress]
          : [],
      );
    expect(progressOf(seenA)).toEqual([1, 2]);
    expect(progressOf(seenB)).toEqual([1, 2, 3, 4]);
    expect(seenA.at(-1)).toMatchObject({ id: 1, result: { content: [{ text: 'did 2' }] } });
    expect(seenB.at(-1)).toMatchObject({ id: 1, result: { content: [{ text: 'did 4' }] } });
  });

  it('refuses a request id that is still in flight in the session', async () => {
    const { handler } = setup();
    const session = await openSession(handler);
    const first = post(handler, call(9, 'steps', { n: 1, delayMs: 100 }), {
      'mcp-session-id': session,
    });
    await sleep(10);
    const second = await post(handler, call(9, 'echo', { m: 'x' }), { 'mcp-session-id': session });
    expect(second.status).toBe(409);
    expect((await first).status).toBe(200);
  });
});

describe('Streamable HTTP: SSE streams', () => {
  it('opens SSE when a request has messages before its response: priming event first, then progress, then the response', async () => {
    const { handler } = setup();
    const session = await openSession(handler);
    const response = await post(
      handler,
      call(2, 'steps', { n: 2, delayMs: 5 }, { progressToken: 'p' }),
      { 'mcp-session-id': session },
    );
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = new EventReader(response);
    const priming = await events.next();
    expect(priming.data).toBe('');
    expect(priming.id).toMatch(/:0$/);
    expect(events.retry).toBe(50);
    expect(await events.nextMessage()).toMatchObject({
      method: 'notifications/progress',
      params: { progressToken: 'p', progress: 1 },
    });
    expect(await events.nextMessage()).toMatchObject({
      method: 'notifications/progress',
      params: { progress: 2 },
    });
    expect(await events.nextMessage()).toMatchObject({
      id: 2,
      result: { content: [{ text: 'did 2' }] },
    });
    await events.end();
  });

  it('opens SSE (resumable) for a response that takes longer than sseAfterMs', async () => {
    const { handler } = setup({ sseAfterMs: 20 });
    const session = await openSession(handler);
    const response = await post(handler, call(2, 'steps', { n: 1, delayMs: 80 }), {
      'mcp-session-id': session,
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = new EventReader(response);
    expect((await events.next()).data).toBe('');
    expect(await events.nextMessage()).toMatchObject({ id: 2 });
  });

  it('always uses SSE in sse mode', async () => {
    const { handler } = setup({ responseMode: 'sse' });
    const session = await openSession(handler);
    const response = await post(handler, call(2, 'echo', { m: 'x' }), {
      'mcp-session-id': session,
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
  });

  it('a dropped stream is not a cancellation: the client resumes with Last-Event-ID and gets only what it missed', async () => {
    const { handler } = setup();
    const session = await openSession(handler);
    const first = new EventReader(
      await post(handler, call(2, 'steps', { n: 4, delayMs: 30 }, { progressToken: 1 }), {
        'mcp-session-id': session,
      }),
    );
    const other = new EventReader(
      await post(handler, call(3, 'steps', { n: 3, delayMs: 25 }, { progressToken: 2 }), {
        'mcp-session-id': session,
      }),
    );
    await first.next(); // priming
    const seen = await first.next();
    expect(JSON.parse(seen.data)).toMatchObject({ params: { progress: 1 } });
    await first.disconnect();
    await sleep(150);
    const resumed = await handler.fetch(
      new Request(`${BASE}/mcp`, {
        method: 'GET',
        headers: {
          host: '127.0.0.1',
          accept: 'text/event-stream',
          'mcp-session-id': session,
          'last-event-id': seen.id ?? '',
        },
      }),
    );
    expect(resumed.status).toBe(200);
    const rest = new EventReader(resumed);
    const replayed: unknown[] = [];
    for (;;) {
      const message = await rest.nextMessage();
      replayed.push(message);
      if ('result' in message) break;
    }
    // Progress that waited for the client is coalesced: the latest value of the token only.
    expect(replayed).toEqual([
      expect.objectContaining({
        params: expect.objectContaining({ progressToken: 1, progress: 4 }),
      }),
      expect.objectContaining({ id: 2, result: expect.anything() }),
    ]);
    await rest.end();
    // The other stream was unaffected and got only its own messages.
    const others: unknown[] = [];
    for (;;) {
      const message = await other.nextMessage();
      others.push(message);
      if ('result' in message) break;
    }
    expect(
      others.every(
        (m) => JSON.stringify(m).includes('"progressToken":2') || (m as { id?: number }).id === 3,
      ),
    ).toBe(true);
  });

  it('lets a tool close its stream so the client polls (SEP-1699)', async () => {
    const { handler } = setup();
    const session = await openSession(handler);
    const response = await post(handler, call(2, 'poll', {}, { progressToken: 't' }), {
      'mcp-session-id': session,
    });
    const events = new EventReader(response);
    const priming = await events.next();
    expect(priming.data).toBe('');
    const progress = await events.next();
    await events.end();
    expect(events.retry).toBe(50);
    const resumed = new EventReader(
      await handler.fetch(
        new Request(`${BASE}/mcp`, {
          method: 'GET',
          headers: {
            host: '127.0.0.1',
            accept: 'text/event-stream',
            'mcp-session-id': session,
            'last-event-id': progress.id ?? '',
          },
        }),
      ),
    );
    expect(await resumed.nextMessage()).toMatchObject({ params: { progress: 2 } });
    expect(await resumed.nextMessage()).toMatchObject({
      id: 2,
      result: { content: [{ text: 'after the poll' }] },
    });
    await resumed.end();
  });

  it('carries list_changed on the GET stream, refuses a second GET with 409, and a GET without SSE Accept with 406', async () => {
    const { server, handler } = setup();
    const session = await openSession(handler);
    const get = (headers: Record<string, string> = {}) =>
      handler.fetch(
        new Request(`${BASE}/mcp`, {
          method: 'GET',
          headers: {
            host: '127.0.0.1',
            accept: 'text/event-stream',
            'mcp-session-id': session,
            ...headers,
          },
        }),
      );
    expect((await get({ accept: 'application/json' })).status).toBe(406);
    const stream = new EventReader(await get());
    expect((await stream.next()).data).toBe('');
    expect((await get()).status).toBe(409);
    server.registerTool('late', {}, () => 'x');
    expect(await stream.nextMessage()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
    });
    expect((await get({ 'last-event-id': 'garbage' })).status).toBe(400);
  });

  it('keeps server messages for the GET stream when none is open, and delivers them when one opens', async () => {
    const { server, handler } = setup();
    const session = await openSession(handler);
    server.registerTool('late', {}, () => 'x');
    await sleep(40);
    const stream = new EventReader(
      await handler.fetch(
        new Request(`${BASE}/mcp`, {
          method: 'GET',
          headers: { host: '127.0.0.1', accept: 'text/event-stream', 'mcp-session-id': session },
        }),
      ),
    );
    expect(await stream.nextMessage()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
    });
  });
});

describe('Streamable HTTP: batches, stateless mode, shutdown', () => {
  it('answers a 2025-03-26 batch with an array and refuses batches on other revisions', async () => {
    const { handler } = setup();
    const old = await openSession(handler, '2025-03-26');
    const response = await post(
      handler,
      [
        call(2, 'echo', { m: 'a' }),
        call(3, 'echo', { m: 'b' }),
        { jsonrpc: '2.0', method: 'notifications/x' },
      ],
      { 'mcp-session-id': old },
    );
    const body = (await response.json()) as Array<{ id: number }>;
    expect(body.map((m) => m.id).sort()).toEqual([2, 3]);
    const modern = await openSession(handler, '2025-11-25');
    expect(
      (await post(handler, [call(2, 'echo', { m: 'a' })], { 'mcp-session-id': modern })).status,
    ).toBe(400);
    expect((await post(handler, [initializeMessage(5)], {})).status).toBe(400);
  });

  it('stateless: serves tools/call without a session, and has no GET or DELETE', async () => {
    const { handler } = setup({ stateless: true });
    const init = await post(handler, initializeMessage());
    expect(init.headers.get('mcp-session-id')).toBeNull();
    expect(await init.json()).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
    const response = await post(handler, call(2, 'echo', { m: 'stateless' }), {
      'mcp-protocol-version': '2025-06-18',
    });
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: { content: [{ type: 'text', text: 'stateless' }] },
    });
    const get = await handler.fetch(
      new Request(`${BASE}/mcp`, {
        method: 'GET',
        headers: { host: '127.0.0.1', accept: 'text/event-stream' },
      }),
    );
    expect(get.status).toBe(405);
    expect(handler.sessionCount).toBe(0);
  });

  it('shuts down gracefully: new requests get 503, the call in flight still answers', async () => {
    const { handler } = setup();
    const session = await openSession(handler);
    const inFlight = post(handler, call(2, 'steps', { n: 1, delayMs: 100 }), {
      'mcp-session-id': session,
    });
    await sleep(10);
    const closing = handler.close({ graceMs: 2000 });
    expect(
      (await post(handler, call(3, 'echo', { m: 'x' }), { 'mcp-session-id': session })).status,
    ).toBe(503);
    expect((await post(handler, initializeMessage())).status).toBe(503);
    const answered = await inFlight;
    const text = await answered.text();
    expect(text).toContain('did 1');
    await closing;
    expect(handler.sessionCount).toBe(0);
  });

  it('answers a call still running when the grace period ends with an error, never leaving a POST open', async () => {
    const { handler } = setup();
    const session = await openSession(handler);
    const inFlight = post(handler, call(2, 'steps', { n: 1, delayMs: 2000 }), {
      'mcp-session-id': session,
    });
    await sleep(10);
    await handler.close({ graceMs: 50 });
    const text = await (await inFlight).text();
    expect(text).toContain('-32001');
  });
});

describe('legacy HTTP+SSE endpoints (2024-11-05)', () => {
  it('sends the endpoint event first, accepts POSTs with 202, and answers on the stream', async () => {
    const { handler } = setup();
    const stream = await handler.fetch(
      new Request(`${BASE}/sse`, { headers: { host: '127.0.0.1', accept: 'text/event-stream' } }),
    );
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const events = new EventReader(stream);
    const endpoint = await events.next();
    expect(endpoint.event).toBe('endpoint');
    expect(endpoint.data).toMatch(/^\/messages\?sessionId=[0-9a-f]{48}$/);
    const accepted = await post(handler, initializeMessage(1, '2024-11-05'), {}, endpoint.data);
    expect(accepted.status).toBe(202);
    const init = await events.next();
    expect(init.event).toBe('message');
    expect(JSON.parse(init.data)).toMatchObject({
      id: 1,
      result: { protocolVersion: '2024-11-05' },
    });
    expect((await post(handler, initializeMessage(), {}, '/messages?sessionId=nope')).status).toBe(
      404,
    );
    await events.disconnect();
  });
});

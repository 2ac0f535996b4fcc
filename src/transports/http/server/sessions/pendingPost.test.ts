import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  EventReader,
  getStream,
  initializeMessage,
  openSession,
  post,
} from '../../../../../test/support/httpHarness.js';
import { createHttpHandler, type HttpHandlerOptions } from '../../../../http.js';
import { McpServer } from '../../../../server.js';
import { MemoryEventStore } from './memoryEventStore.js';
import { HttpSessionTransport } from './httpSession.js';

function setup(options: HttpHandlerOptions = {}) {
  const server = new McpServer({ name: 'pending', version: '1' });
  server.registerTool('echo', { inputSchema: z.object({ m: z.string() }) }, ({ m }) => m);
  server.registerTool('later', { inputSchema: z.object({ ms: z.number() }) }, async ({ ms }) => {
    await new Promise((r) => setTimeout(r, ms));
    return `after ${ms}`;
  });
  server.registerTool('progress', {}, async (_a, ctx) => {
    await new Promise((r) => setTimeout(r, 20));
    ctx.progress(1);
    return 'progressed';
  });
  server.registerTool('pollFirst', {}, async (_a, ctx) => {
    ctx.closeStream();
    await new Promise((r) => setTimeout(r, 20));
    return 'polled';
  });
  const handler = createHttpHandler(server, { retryMs: 10, onerror: () => {}, ...options });
  return { server, handler };
}

const call = (id: number, name: string, args: Record<string, unknown> = {}, token?: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, ...(token ? { _meta: { progressToken: token } } : {}) },
});

describe('MCP-Session-Id is sent on the InitializeResult response only', () => {
  it('names the session on the initialize response, JSON or SSE, and nowhere else', async () => {
    for (const responseMode of ['adaptive', 'sse'] as const) {
      const { handler } = setup({ responseMode });
      const init = await post(handler, initializeMessage());
      const session = init.headers.get('mcp-session-id');
      expect(session).toMatch(/^[0-9a-f]{48}$/);
      expect(init.headers.get('content-type')).toBe(
        responseMode === 'sse' ? 'text/event-stream' : 'application/json',
      );
      await init.body?.cancel();
      const headers = { 'mcp-session-id': session ?? '' };
      const ack = await post(
        handler,
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        headers,
      );
      expect(ack.status).toBe(202);
      expect(ack.headers.get('mcp-session-id')).toBeNull();
      const answer = await post(handler, call(2, 'echo', { m: 'x' }), headers);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('mcp-session-id')).toBeNull();
      await answer.body?.cancel();
      const streamed = await post(handler, call(3, 'progress', {}, 't'), headers);
      expect(streamed.headers.get('content-type')).toBe('text/event-stream');
      expect(streamed.headers.get('mcp-session-id')).toBeNull();
      const events = new EventReader(streamed);
      expect(await events.nextMessage()).toMatchObject({ params: { progressToken: 't' } });
      expect(await events.nextMessage()).toMatchObject({ id: 3 });
      const get = await getStream(handler, headers);
      expect(get.status).toBe(200);
      expect(get.headers.get('mcp-session-id')).toBeNull();
      await get.body?.cancel();
      await handler.close({ graceMs: 0 });
    }
  });
});

describe('a POST answered in JSON, until it must stream', () => {
  it('streams with the responses it held first when a message for another of its requests comes', async () => {
    // Driven at the transport: the server sends a batch's responses together, but the transport
    // takes them one by one in any order.
    const session = new HttpSessionTransport('s1', {
      eventStore: new MemoryEventStore(),
      retryMs: 10,
      responseMode: 'adaptive',
      sseAfterMs: 60_000,
      report: () => {},
    });
    const reply = session.receive([call(2, 'a'), call(3, 'b')], {
      batch: true,
      requestIds: [2, 3],
      message: {},
    });
    await session.send({ jsonrpc: '2.0', id: 2, result: { first: true } });
    await session.send(
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p', progress: 1 },
      },
      { relatedRequestId: 3 },
    );
    await session.send({ jsonrpc: '2.0', id: 3, result: { second: true } });
    const answered = await reply;
    if (!answered || !('sse' in answered)) throw new Error('expected an SSE reply');
    expect(answered.headers['content-type']).toBe('text/event-stream');
    let text = '';
    answered.sse.attach({ write: (t) => ((text += t), true), close: () => {} });
    const data = text
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line.length > 6)
      .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
    expect(text.startsWith('id: ')).toBe(true); // the priming event first
    expect(data).toEqual([
      { jsonrpc: '2.0', id: 2, result: { first: true } },
      expect.objectContaining({ method: 'notifications/progress' }),
      { jsonrpc: '2.0', id: 3, result: { second: true } },
    ]);
    expect(session.hasPending(2) || session.hasPending(3)).toBe(false);
    await session.close();
  });

  it('answers a batch in one JSON array once every response is in, whatever their order', async () => {
    const { handler } = setup();
    const session = await openSession(handler, '2025-03-26');
    const response = await post(
      handler,
      [call(2, 'later', { ms: 30 }), call(3, 'echo', { m: 'quick' })],
      { 'mcp-session-id': session },
    );
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = (await response.json()) as Array<{ id: number }>;
    expect(body.map((m) => m.id).sort()).toEqual([2, 3]);
  });

  it('streams when the handler closes the connection before sending anything; the client resumes', async () => {
    const { handler } = setup();
    const session = await openSession(handler);
    const response = await post(handler, call(2, 'pollFirst'), { 'mcp-session-id': session });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = new EventReader(response);
    const priming = await events.next();
    expect(priming.data).toBe('');
    await events.end();
    const resumed = new EventReader(
      await getStream(handler, { 'mcp-session-id': session, 'last-event-id': priming.id ?? '' }),
    );
    expect(await resumed.nextMessage()).toMatchObject({
      id: 2,
      result: { content: [{ text: 'polled' }] },
    });
    await resumed.end();
  });

  it('frees a request id once its JSON answer is sent', async () => {
    const { handler } = setup();
    const session = await openSession(handler);
    for (let i = 0; i < 3; i++) {
      const response = await post(handler, call(7, 'echo', { m: `n${i}` }), {
        'mcp-session-id': session,
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        id: 7,
        result: { content: [{ text: `n${i}` }] },
      });
    }
  });

  it('answers every request of a POST with an error when the session closes before their responses', async () => {
    const { handler } = setup();
    const session = await openSession(handler, '2025-03-26');
    const inFlight = post(
      handler,
      [call(2, 'later', { ms: 2000 }), call(3, 'echo', { m: 'done' })],
      { 'mcp-session-id': session },
    );
    await new Promise((r) => setTimeout(r, 20));
    await handler.close({ graceMs: 0 });
    const response = await inFlight;
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = (await response.json()) as Array<{ id: number; error?: { code: number } }>;
    expect(body.map((m) => m.id).sort()).toEqual([2, 3]);
    expect(body.find((m) => m.id === 2)?.error?.code).toBe(-32001);
  });
});

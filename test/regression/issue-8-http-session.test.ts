/**
 * Issue 8, Streamable HTTP:
 * - A request whose `MCP-Protocol-Version` is supported but differs from the version negotiated on
 *   its session was accepted; it is now a 400.
 * - Resuming with `Last-Event-ID: <stream>:0` (the priming event's id) replayed an event with that
 *   same id. A resumption never sends an event whose id is at or before `Last-Event-ID`.
 */
import { describe, expect, it } from 'vitest';
import { createHttpHandler, MemoryClusterHub, type HttpCluster } from '../../src/http.js';
import { McpServer } from '../../src/server.js';
import { BASE, EventReader, openSession, post } from '../support/httpHarness.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function handlerOf(options: { cluster?: HttpCluster } = {}) {
  const server = new McpServer({ name: 'http', version: '1' });
  server.registerTool('poll', {}, async (_args, ctx) => {
    ctx.closeStream(); // the client is told to come back with Last-Event-ID
    await sleep(40);
    return 'after the poll';
  });
  server.registerTool('echo', {}, () => 'echo');
  return createHttpHandler(server, { retryMs: 20, onerror: () => {}, ...options });
}

const get = (handler: ReturnType<typeof handlerOf>, headers: Record<string, string>) =>
  handler.fetch(
    new Request(`${BASE}/mcp`, {
      method: 'GET',
      headers: { host: '127.0.0.1:3000', accept: 'text/event-stream', ...headers },
    }),
  );

const listTools = { jsonrpc: '2.0', id: 7, method: 'tools/list' };

describe('MCP-Protocol-Version must match the session', () => {
  it('answers 400 to a supported version other than the negotiated one, on POST, GET and DELETE', async () => {
    const handler = handlerOf();
    const session = await openSession(handler, '2025-06-18');
    const other = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const refused = await post(handler, listTools, other);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32600,
        message:
          'MCP-Protocol-Version "2025-11-25" differs from the version negotiated on this session (2025-06-18)',
      },
    });
    expect((await get(handler, other)).status).toBe(400);
    const deleted = await handler.fetch(
      new Request(`${BASE}/mcp`, {
        method: 'DELETE',
        headers: { host: '127.0.0.1:3000', ...other },
      }),
    );
    expect(deleted.status).toBe(400);
    // The session is unharmed: the right version (or none, for old clients) is served.
    const right = await post(handler, listTools, {
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-06-18',
    });
    expect(right.status).toBe(200);
    expect(await right.json()).toMatchObject({ id: 7, result: { tools: expect.any(Array) } });
    expect((await post(handler, listTools, { 'mcp-session-id': session })).status).toBe(200);
  });
});

describe('resuming never repeats an event at or before Last-Event-ID', () => {
  async function pollFor(handler: ReturnType<typeof handlerOf>, session: string) {
    const response = await post(
      handler,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'poll', arguments: {} } },
      { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    );
    const reader = new EventReader(response);
    const priming = await reader.next();
    await reader.end();
    return priming;
  }

  it.each([
    [
      'on the same instance',
      () => {
        const one = handlerOf();
        return { first: one, second: one };
      },
    ],
    [
      'on another instance of a cluster',
      () => {
        const hub = new MemoryClusterHub();
        return {
          first: handlerOf({ cluster: hub.instance() }),
          second: handlerOf({ cluster: hub.instance() }),
        };
      },
    ],
  ])('from the priming event, %s', async (_where, make) => {
    const { first, second } = make();
    const session = await openSession(first);
    const priming = await pollFor(first, session);
    expect(priming.id).toMatch(/:0$/);
    expect(priming.data).toBe('');
    const resumed = new EventReader(
      await get(second, {
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-11-25',
        'last-event-id': priming.id ?? '',
      }),
    );
    const ids: Array<string | undefined> = [];
    let result: unknown;
    for (;;) {
      const event = await resumed.next();
      ids.push(event.id);
      if (event.data !== '' && 'result' in (JSON.parse(event.data) as object)) {
        result = JSON.parse(event.data);
        break;
      }
    }
    expect(result).toMatchObject({ id: 2, result: { content: [{ text: 'after the poll' }] } });
    const seq = (id: string | undefined) => Number(id?.slice(id.lastIndexOf(':') + 1));
    for (const id of ids) expect(seq(id)).toBeGreaterThan(0);
    expect(resumed.retry).toBe(20); // the retry delay still comes, without an event id
  });
});

/**
 * Issue 9, HTTP: there was no cap on the sessions one principal holds, so one caller could take
 * every session of the server (`maxSessions`, then 503 for everyone). Each principal (an
 * authenticated identity, or an anonymous caller's client address, an IPv6 one by its /64) now
 * holds at most `maxSessionsPerPrincipal` (100) sessions on an instance, Streamable HTTP and
 * HTTP+SSE together; more initializations get 429 -32000. Sessions another instance of a cluster
 * created are served here without being counted here.
 */
import { describe, expect, it } from 'vitest';
import {
  createHttpHandler,
  MemoryClusterHub,
  type HttpHandlerOptions,
  type StreamableHttpHandler,
} from '../../src/http.js';
import { McpServer } from '../../src/server.js';
import { BASE, initializeMessage, postHeaders } from '../support/httpHarness.js';

function handlerOf(options: HttpHandlerOptions = {}) {
  const server = new McpServer({ name: 'cap', version: '1' });
  server.registerTool('echo', {}, () => 'echo');
  return createHttpHandler(server, { onerror: () => {}, ...options });
}

async function initialize(
  handler: StreamableHttpHandler,
  clientAddress: string | undefined,
  headers: Record<string, string> = {},
): Promise<{ status: number; session: string | null; code?: number }> {
  const response = await handler.fetch(
    new Request(`${BASE}/mcp`, {
      method: 'POST',
      headers: postHeaders(headers),
      body: JSON.stringify(initializeMessage()),
    }),
    clientAddress === undefined ? {} : { clientAddress },
  );
  const body = (await response.json()) as { error?: { code: number } };
  return {
    status: response.status,
    session: response.headers.get('mcp-session-id'),
    ...(body.error ? { code: body.error.code } : {}),
  };
}

describe('sessions per principal', () => {
  it('caps an anonymous client address (an IPv6 one by its /64) and frees a place on DELETE', async () => {
    const handler = handlerOf({ maxSessionsPerPrincipal: 2 });
    const first = await initialize(handler, '2001:db8:1:2::10');
    expect((await initialize(handler, '2001:db8:1:2::99')).status).toBe(200);
    const refused = await initialize(handler, '2001:db8:1:2:ffff::1');
    expect(refused).toEqual({ status: 429, session: null, code: -32000 });
    // Other callers are not affected.
    expect((await initialize(handler, '2001:db8:1:3::1')).status).toBe(200);
    expect((await initialize(handler, '192.0.2.7')).status).toBe(200);
    expect(handler.sessionCount).toBe(4);
    const deleted = await handler.fetch(
      new Request(`${BASE}/mcp`, {
        method: 'DELETE',
        headers: { host: '127.0.0.1:3000', 'mcp-session-id': first.session ?? '' },
      }),
      { clientAddress: '2001:db8:1:2::10' },
    );
    expect(deleted.status).toBe(200);
    expect((await initialize(handler, '2001:db8:1:2::10')).status).toBe(200);
  });

  it('holds 100 sessions per principal by default', async () => {
    const handler = handlerOf();
    for (let i = 0; i < 100; i++)
      expect((await initialize(handler, '198.51.100.1')).status).toBe(200);
    const refused = await initialize(handler, '198.51.100.1');
    expect(refused.status).toBe(429);
    expect((await initialize(handler, '198.51.100.2')).status).toBe(200);
  });

  it('counts an authenticated caller by its identity, wherever it connects from', async () => {
    const handler = handlerOf({
      maxSessionsPerPrincipal: 1,
      authenticate: (r) => ({ id: r.header('authorization') ?? 'nobody' }),
    });
    expect((await initialize(handler, '192.0.2.1', { authorization: 'alice' })).status).toBe(200);
    expect((await initialize(handler, '192.0.2.2', { authorization: 'alice' })).status).toBe(429);
    expect((await initialize(handler, '192.0.2.1', { authorization: 'bob' })).status).toBe(200);
  });

  it('counts HTTP+SSE sessions in the same quota', async () => {
    const handler = handlerOf({ maxSessionsPerPrincipal: 1 });
    const legacy = await handler.fetch(
      new Request(`${BASE}/sse`, {
        headers: { host: '127.0.0.1:3000', accept: 'text/event-stream' },
      }),
      { clientAddress: '192.0.2.9' },
    );
    expect(legacy.status).toBe(200);
    expect((await initialize(handler, '192.0.2.9')).status).toBe(429);
    const second = await handler.fetch(
      new Request(`${BASE}/sse`, {
        headers: { host: '127.0.0.1:3000', accept: 'text/event-stream' },
      }),
      { clientAddress: '192.0.2.9' },
    );
    expect(second.status).toBe(429);
    await legacy.body?.cancel();
    // The stream was the session: closing it gives the place back.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 10));
      status = (await initialize(handler, '192.0.2.9')).status;
    }
    expect(status).toBe(200);
    expect((await initialize(handler, '192.0.2.9')).status).toBe(429);
  });

  it('is per instance in a cluster: sessions adopted from another instance are not counted', async () => {
    const hub = new MemoryClusterHub();
    const a = handlerOf({ maxSessionsPerPrincipal: 1, cluster: hub.instance() });
    const b = handlerOf({ maxSessionsPerPrincipal: 1, cluster: hub.instance() });
    const made = await initialize(a, '192.0.2.5');
    expect(made.status).toBe(200);
    expect((await initialize(a, '192.0.2.5')).status).toBe(429);
    const used = await b.fetch(
      new Request(`${BASE}/mcp`, {
        method: 'POST',
        headers: postHeaders({ 'mcp-session-id': made.session ?? '' }),
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      }),
      { clientAddress: '192.0.2.5' },
    );
    expect(used.status).toBe(200);
    expect(b.sessionCount).toBe(1);
    expect((await initialize(b, '192.0.2.5')).status).toBe(200);
  });

  it('leaves callers whose address is unknown to the server-wide cap', async () => {
    const handler = handlerOf({ maxSessionsPerPrincipal: 1, maxSessions: 3 });
    for (let i = 0; i < 3; i++) expect((await initialize(handler, undefined)).status).toBe(200);
    expect((await initialize(handler, undefined)).status).toBe(503);
  });
});

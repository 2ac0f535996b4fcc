/**
 * Issue 10, HTTP: the handler checked a POST's batch for repeated request ids with
 * `Array.includes` per message, quadratic in the batch's size, and did so before looking up the
 * session: a 4 MiB batch of 100 000 requests naming no session at all held the event loop for
 * about 3 s on this machine (300 000 requests, about 25 s). The ids are now checked in a Set.
 * The test's own timeout only guards against that hang; nothing here is a timing assertion.
 */
import { describe, expect, it } from 'vitest';
import { createHttpHandler } from '../../src/http.js';
import type { HttpExchange } from '../../src/transports/http/server/exchange.js';
import { McpServer } from '../../src/server.js';

const HEADERS: Record<string, string> = {
  host: '127.0.0.1',
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-session-id': 'no-such-session',
};

function exchangeOf(text: string): HttpExchange {
  return {
    method: 'POST',
    pathname: '/mcp',
    query: () => null,
    header: (name) => HEADERS[name] ?? null,
    body: () => Promise.resolve({ ok: true, text }),
  };
}

describe('a large batch is checked in time linear in its size', () => {
  const handler = createHttpHandler(new McpServer({ name: 'batch', version: '1' }), {
    maxBodyBytes: 32 * 1024 * 1024,
    onerror: () => {},
  });
  const requests = Array.from({ length: 300_000 }, (_, i) => ({
    jsonrpc: '2.0',
    id: i,
    method: 'tools/list',
  }));

  it('refuses a batch of 300 000 requests for an unknown session with 404', async () => {
    const reply = await handler.handle(exchangeOf(JSON.stringify(requests)));
    expect(reply.status).toBe(404);
  }, 10_000);

  it('still finds a repeated id at the end of a large batch', async () => {
    const repeated = [...requests, { jsonrpc: '2.0', id: 7, method: 'tools/list' }];
    const reply = await handler.handle(exchangeOf(JSON.stringify(repeated)));
    expect(reply.status).toBe(400);
    expect('body' in reply && reply.body).toContain('Request id 7 appears twice');
  }, 10_000);
});

/**
 * Issue 11, HTTP sessions: a session was bound to its creator's principal id only, so another
 * client of the same user (same issuer and subject, another client id) could use it; and in a
 * cluster the session directory kept only that id, so an instance adopting the session restored
 * `{ id }` and lost the rest of the binding. A session now belongs to the identity's id, issuer,
 * subject and client together, on the instance that created it, on one that adopts it, and on
 * the 2024-11-05 endpoints: anyone else gets 404.
 */
import { describe, expect, it } from 'vitest';
import { createHttpHandler, MemoryClusterHub, type HttpHandlerOptions } from '../../src/http.js';
import type { Identity } from '../../src/index.js';
import { McpServer } from '../../src/server.js';
import { BASE, EventReader, openSession, post } from '../support/httpHarness.js';

const ISSUER = 'https://issuer.example';

/** Identities as an OAuth resource server makes them: `x-client` names the client. */
function identityOf(header: (name: string) => string | null): Identity {
  const subject = header('x-user') ?? 'alice';
  return {
    id: `${ISSUER} ${subject}`,
    issuer: ISSUER,
    subject,
    clientId: header('x-client') ?? 'app-one',
    scopes: ['mcp:tools'],
  };
}

function handlerOf(options: HttpHandlerOptions = {}) {
  const server = new McpServer({ name: 'binding', version: '1' });
  server.registerTool(
    'whoami',
    {},
    (_a, ctx) => `${ctx.identity?.id} via ${ctx.identity?.clientId}`,
  );
  return createHttpHandler(server, {
    onerror: () => {},
    authenticate: (r) => identityOf(r.header),
    ...options,
  });
}

const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

describe('a session is bound to the issuer, subject and client that created it', () => {
  it('another client of the same user gets 404', async () => {
    const handler = handlerOf();
    const session = await openSession(handler, '2025-11-25', { 'x-client': 'app-one' });
    const other = await post(handler, listTools, {
      'mcp-session-id': session,
      'x-client': 'app-two',
    });
    expect(other.status).toBe(404);
    const same = await post(handler, listTools, {
      'mcp-session-id': session,
      'x-client': 'app-one',
    });
    expect(same.status).toBe(200);
  });

  it('an instance adopting the session from the directory keeps the whole binding', async () => {
    const hub = new MemoryClusterHub();
    const first = handlerOf({ cluster: hub.instance() });
    const second = handlerOf({ cluster: hub.instance() });
    const session = await openSession(first, '2025-11-25', { 'x-client': 'app-one' });
    const other = await post(second, listTools, {
      'mcp-session-id': session,
      'x-client': 'app-two',
    });
    expect(other.status).toBe(404);
    const same = await post(second, listTools, {
      'mcp-session-id': session,
      'x-client': 'app-one',
    });
    expect(same.status).toBe(200);
    // Refused on the adopting instance afterwards too.
    const again = await post(second, listTools, {
      'mcp-session-id': session,
      'x-client': 'app-two',
    });
    expect(again.status).toBe(404);
  });

  it('the HTTP+SSE session of one client refuses the messages of another', async () => {
    const handler = handlerOf();
    const stream = await handler.fetch(
      new Request(`${BASE}/sse`, {
        headers: { host: '127.0.0.1:3000', accept: 'text/event-stream', 'x-client': 'app-one' },
      }),
    );
    const events = new EventReader(stream);
    const endpoint = (await events.next()).data;
    const other = await post(handler, listTools, { 'x-client': 'app-two' }, endpoint);
    expect(other.status).toBe(404);
    const same = await post(handler, listTools, { 'x-client': 'app-one' }, endpoint);
    expect(same.status).toBe(202);
    await events.disconnect();
    await handler.close();
  });
});

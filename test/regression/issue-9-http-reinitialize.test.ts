/**
 * Issue 9, HTTP: a second `initialize` on a live session (sent with its `MCP-Session-Id`) created
 * a new session. It is now answered 400 (-32600) and the live session is left unharmed; an id
 * that names no session of the caller is ignored as before.
 */
import { describe, expect, it } from 'vitest';
import { createHttpHandler, MemoryClusterHub, type HttpHandlerOptions } from '../../src/http.js';
import { McpServer } from '../../src/server.js';
import { initializeMessage, openSession, post } from '../support/httpHarness.js';

function handlerOf(options: HttpHandlerOptions = {}) {
  const server = new McpServer({ name: 'reinit', version: '1' });
  server.registerTool('echo', {}, () => 'echo');
  return createHttpHandler(server, {
    onerror: () => {},
    authenticate: (r) => ({ id: r.header('authorization') ?? 'anonymous' }),
    ...options,
  });
}

const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

describe('a second initialize on a live session', () => {
  it('is answered 400 -32600 and the session keeps working', async () => {
    const handler = handlerOf();
    const session = await openSession(handler);
    const again = await post(handler, initializeMessage(9), { 'mcp-session-id': session });
    expect(again.status).toBe(400);
    expect(again.headers.get('mcp-session-id')).toBeNull();
    expect(await again.json()).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32600,
        message:
          'This session is already initialized; a new session starts with an initialize request without MCP-Session-Id',
      },
    });
    expect(handler.sessionCount).toBe(1);
    const listed = await post(handler, listTools, { 'mcp-session-id': session });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toMatchObject({ id: 2, result: { tools: [{ name: 'echo' }] } });
  });

  it('is refused on another instance of a cluster too', async () => {
    const hub = new MemoryClusterHub();
    const first = handlerOf({ cluster: hub.instance() });
    const second = handlerOf({ cluster: hub.instance() });
    const session = await openSession(first);
    const again = await post(second, initializeMessage(9), { 'mcp-session-id': session });
    expect(again.status).toBe(400);
    expect(second.sessionCount).toBe(0);
    const listed = await post(second, listTools, { 'mcp-session-id': session });
    expect(listed.status).toBe(200);
  });

  it('starts a new session when the id names no session of the caller (nothing revealed)', async () => {
    const handler = handlerOf();
    const mine = await openSession(handler, '2025-11-25', { authorization: 'alice' });
    const stale = await post(handler, initializeMessage(), { 'mcp-session-id': 'gone' });
    expect(stale.status).toBe(200);
    const other = await post(handler, initializeMessage(), {
      'mcp-session-id': mine,
      authorization: 'bob',
    });
    expect(other.status).toBe(200);
    expect(other.headers.get('mcp-session-id')).not.toBe(mine);
    expect(handler.sessionCount).toBe(3);
  });
});

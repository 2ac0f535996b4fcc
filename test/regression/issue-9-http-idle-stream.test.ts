/**
 * Issue 9, HTTP: a session holding an open GET stream was never reaped, so a client that went
 * away without closing its connection (or kept a half-open one) held its session forever. An
 * open GET stream no longer keeps a session alive by itself: once the session has been idle for
 * `sessionIdleMs`, the GET connection is ended (with the `retry` delay, the stream stays
 * resumable); a client that is still there reconnects, which is activity, and keeps its session;
 * one that does not is reaped at the next pass.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import { createHttpHandler, StreamableHttpClientTransport } from '../../src/http.js';
import { serveHttp } from '../../src/node.js';
import { McpServer } from '../../src/server.js';
import { EventReader, getStream, openSession, post } from '../support/httpHarness.js';

const IDLE_MS = 200; // the reaper runs every second (its shortest period)

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close().catch(() => {});
});

function handlerOf() {
  const server = new McpServer({ name: 'idle', version: '1' });
  server.registerTool('echo', {}, () => 'echo');
  const handler = createHttpHandler(server, {
    onerror: () => {},
    sessionIdleMs: IDLE_MS,
    retryMs: 50,
  });
  open.push(handler);
  return handler;
}

describe('a session that only holds an idle GET stream', () => {
  it('has its GET connection ended, then is reaped when the client does not come back', async () => {
    const handler = handlerOf();
    const session = await openSession(handler);
    const stream = new EventReader(await getStream(handler, { 'mcp-session-id': session }));
    expect((await stream.next()).data).toBe(''); // the priming event
    // Before the fix the stream stayed open and the session lived forever.
    await stream.end(4000);
    expect(stream.retry).toBe(50);
    const deadline = Date.now() + 4000;
    while (handler.sessionCount > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(handler.sessionCount).toBe(0);
    const after = await post(
      handler,
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      { 'mcp-session-id': session },
    );
    expect(after.status).toBe(404);
  }, 15_000);

  it('keeps the session of a client that reconnects its GET stream', async () => {
    const handler = handlerOf();
    const listener = await serveHttp(handler);
    open.push(listener);
    const transport = new StreamableHttpClientTransport(listener.url);
    const client = new McpClient({ name: 'listener', version: '1' }, { protocolEra: 'legacy' });
    await client.connect(transport);
    open.push(client);
    const session = transport.sessionId;
    expect(session).toBeDefined();
    // Three reaper passes, each ending the idle GET connection; the client comes back each time.
    await new Promise((r) => setTimeout(r, 3500));
    expect(handler.sessionCount).toBe(1);
    expect(await client.callTool('echo', {})).toMatchObject({ content: [{ text: 'echo' }] });
    expect(transport.sessionId).toBe(session);
  }, 15_000);
});

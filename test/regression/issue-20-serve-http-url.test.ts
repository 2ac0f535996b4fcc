/**
 * Issue 20: `serveHttp(...).url` was the origin (`http://127.0.0.1:<port>`), without the MCP
 * path, so a client given it reached nothing. Now `url` is the endpoint to give clients: the MCP
 * endpoint of an MCP handler (`/mcp`, or its `path` option), the origin and `/` for any other
 * fetch handler; `origin` is the scheme, host and port, for the handler's other paths (`/sse`).
 * Failed before the fix: `url` had no path, and there was no `origin`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import {
  createHttpHandler,
  HttpClientTransport,
  LegacySseClientTransport,
} from '../../src/http.js';
import { serveHttp } from '../../src/node.js';
import { McpServer } from '../../src/server.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

function mcpServer(): McpServer {
  const server = new McpServer({ name: 'issue-20', version: '1' });
  server.registerTool('ping', { description: 'pong' }, () => 'pong');
  return server;
}

/** Connects a client to `transport` and lists the tool names. */
async function toolNames(transport: HttpClientTransport | LegacySseClientTransport) {
  const client = new McpClient({ name: 'issue-20', version: '1' }, { protocolEra: 'legacy' });
  await client.connect(transport);
  open.push(client);
  return (await client.listTools()).map((t) => t.name);
}

describe('issue 20: serveHttp(...).url is the endpoint', () => {
  it('of an MCP handler: its /mcp endpoint, which a client connects to as it is', async () => {
    const handler = createHttpHandler(mcpServer(), { onerror: () => {} });
    const listener = await serveHttp(handler);
    open.push(listener, handler);
    expect(listener.origin).toBe(`http://127.0.0.1:${listener.port}`);
    expect(listener.url).toBe(`http://127.0.0.1:${listener.port}/mcp`);
    const transport = new HttpClientTransport(listener.url);
    expect(await toolNames(transport)).toEqual(['ping']);
    expect(transport.kind).toBe('streamable-http');
    // The handler's other paths hang off the origin.
    expect(await toolNames(new LegacySseClientTransport(`${listener.origin}/sse`))).toEqual([
      'ping',
    ]);
  });

  it('of an MCP handler with another path: that path', async () => {
    const handler = createHttpHandler(mcpServer(), { path: '/api/v1/mcp', onerror: () => {} });
    const listener = await serveHttp(handler);
    open.push(listener, handler);
    expect(listener.url).toBe(`${listener.origin}/api/v1/mcp`);
    expect(await toolNames(new HttpClientTransport(listener.url))).toEqual(['ping']);
  });

  it('of a plain fetch handler: the origin and /', async () => {
    const seen: string[] = [];
    const listener = await serveHttp(async (request) => {
      seen.push(new URL(request.url).pathname);
      return new Response('hello');
    });
    open.push(listener);
    expect(listener.url).toBe(`${listener.origin}/`);
    expect(await (await fetch(listener.url)).text()).toBe('hello');
    expect(seen).toEqual(['/']);
  });
});

/**
 * Issue 9, client: connecting one server or client twice to the same transport was silently
 * accepted. The second connect took over the transport's callbacks, so the first connection
 * stopped hearing its responses. Connecting now claims the transport for good: a second connect,
 * by the same or any other server or client, throws; and a client transport whose start() was
 * already called refuses a second start (the one connect() makes).
 */
import { describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import {
  HttpClientTransport,
  LegacySseClientTransport,
  StreamableHttpClientTransport,
} from '../../src/http.js';
import { McpServer } from '../../src/server.js';
import { StdioClientTransport } from '../../src/stdio.js';
import { createLinkedPair } from '../../src/transports/memory.js';

const taken = { code: 'transport', message: expect.stringMatching(/already carries a connection/) };

function serverWithTool(): McpServer {
  const server = new McpServer({ name: 's', version: '1' });
  server.registerTool('ping', { description: 'answers pong' }, () => ({
    content: [{ type: 'text', text: 'pong' }],
  }));
  return server;
}

describe('a transport carries one connection', () => {
  it('McpServer.connect refuses a transport it already serves', async () => {
    const server = serverWithTool();
    const [clientSide, serverSide] = createLinkedPair();
    await server.connect(serverSide);
    await expect(server.connect(serverSide)).rejects.toMatchObject(taken);
    expect(server.sessions.size).toBe(1);
    // The first session still serves.
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'legacy' });
    await client.connect(clientSide);
    await expect(client.callTool('ping')).resolves.toMatchObject({
      content: [{ type: 'text', text: 'pong' }],
    });
    await client.close();
    await server.close();
  });

  it('a second server cannot take the transport of the first', async () => {
    const first = serverWithTool();
    const second = serverWithTool();
    const [clientSide, serverSide] = createLinkedPair();
    await first.connect(serverSide);
    await expect(second.connect(serverSide)).rejects.toMatchObject(taken);
    expect(second.sessions.size).toBe(0);
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'legacy' });
    await client.connect(clientSide);
    expect(client.serverInfo).toMatchObject({ name: 's' });
    await client.close();
    await first.close();
  });

  it('McpClient.connect refuses a transport another client (or a server) uses', async () => {
    const server = serverWithTool();
    const [clientSide, serverSide] = createLinkedPair();
    await server.connect(serverSide);
    const first = new McpClient({ name: 'first', version: '1' }, { protocolEra: 'legacy' });
    await first.connect(clientSide);
    const second = new McpClient({ name: 'second', version: '1' }, { protocolEra: 'legacy' });
    await expect(second.connect(clientSide)).rejects.toMatchObject(taken);
    // A client cannot take the server's end either.
    await expect(second.connect(serverSide)).rejects.toMatchObject(taken);
    // The first client's responses still reach it.
    await expect(first.callTool('ping')).resolves.toMatchObject({
      content: [{ type: 'text', text: 'pong' }],
    });
    await first.close();
    await server.close();
  });

  it('the same client reconnecting after close needs a new transport', async () => {
    const server = serverWithTool();
    const [clientSide, serverSide] = createLinkedPair();
    await server.connect(serverSide);
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'legacy' });
    await client.connect(clientSide);
    await client.close();
    await expect(client.connect(clientSide)).rejects.toMatchObject(taken);
    const [again, againServer] = createLinkedPair();
    await server.connect(againServer);
    await client.connect(again);
    await expect(client.callTool('ping')).resolves.toMatchObject({
      content: [{ type: 'text', text: 'pong' }],
    });
    await client.close();
    await server.close();
  });

  it.each([
    [
      'StreamableHttpClientTransport',
      () => new StreamableHttpClientTransport('http://127.0.0.1:9/mcp'),
    ],
    ['HttpClientTransport', () => new HttpClientTransport('http://127.0.0.1:9/mcp')],
    [
      'StdioClientTransport',
      () =>
        new StdioClientTransport({
          command: process.execPath,
          args: ['-e', 'setTimeout(() => {}, 5000)'],
          shutdownGraceMs: 100,
        }),
    ],
  ])('%s started by hand is refused by connect', async (name, make) => {
    const transport = make();
    await transport.start();
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'legacy' });
    const error = await client.connect(transport).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'transport',
      message: `${name}.start() was called twice: a transport is started once, by the connect() that uses it`,
    });
    await transport.close();
  });

  it('LegacySseClientTransport refuses a second start without opening a second stream', async () => {
    let gets = 0;
    const fetcher: typeof fetch = async () => {
      gets++;
      return new Response('event: endpoint\ndata: /messages\n\n', {
        headers: { 'content-type': 'text/event-stream' },
      });
    };
    const transport = new LegacySseClientTransport('http://127.0.0.1:9/sse', { fetch: fetcher });
    await transport.start();
    await expect(transport.start()).rejects.toMatchObject({
      code: 'transport',
      message: expect.stringMatching(/^LegacySseClientTransport\.start\(\) was called twice/),
    });
    expect(gets).toBe(1);
    await transport.close();
  });
});

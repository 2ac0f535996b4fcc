import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../jsonrpc/types.js';
import { McpServer, type ServerOptions } from '../../server/mcpServer.js';
import { createLinkedPair } from '../../transports/memory.js';
import { McpClient } from '../mcpClient.js';
import { forgetEras } from './eraMemory.js';

afterEach(() => forgetEras());

function server(options: ServerOptions = {}): McpServer {
  const s = new McpServer({ name: 's', version: '1' }, options);
  s.registerTool('ping_tool', {}, () => 'pong');
  return s;
}

/** A linked pair whose client end has an endpoint key, and a record of the methods it sent. */
async function pair(s: McpServer, key = 'test-endpoint') {
  const [a, b] = createLinkedPair();
  const sent: string[] = [];
  const send = a.send.bind(a);
  Object.assign(a, {
    endpointKey: key,
    send: (message: JsonObject) => {
      if (typeof message['method'] === 'string') sent.push(message['method']);
      return send(message as never);
    },
  });
  await s.connect(b);
  return { transport: a, sent };
}

describe('protocolEra: auto', () => {
  it('speaks 2026-07-28 to a server that answers server/discover', async () => {
    const { transport, sent } = await pair(server());
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'auto' });
    await client.connect(transport);
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(sent[0]).toBe('server/discover');
    expect(await client.callTool('ping_tool')).toMatchObject({ content: [{ text: 'pong' }] });
    await client.close();
  });

  it('falls back to initialize on the same connection, and remembers the server’s era', async () => {
    const legacyOnly = server({ protocolVersions: ['2025-06-18', '2025-11-25'] });
    const first = await pair(legacyOnly, 'old-server');
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'auto' });
    await client.connect(first.transport);
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(first.sent.slice(0, 2)).toEqual(['server/discover', 'initialize']);
    expect(await client.callTool('ping_tool')).toMatchObject({ content: [{ text: 'pong' }] });
    await client.close();
    // The next connection to the same server starts with initialize.
    const second = await pair(legacyOnly, 'old-server');
    const again = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'auto' });
    await again.connect(second.transport);
    expect(second.sent[0]).toBe('initialize');
    await again.close();
  });

  it('falls back when the probe is answered with anything but a 2026 answer', async () => {
    // A server that does not answer server/discover at all: the probe times out.
    const silent = new McpServer(
      { name: 'silent', version: '1' },
      {
        protocolVersions: ['2025-11-25'],
      },
    );
    const [a, b] = createLinkedPair();
    const receive = b.send.bind(b);
    let dropped = 0;
    Object.assign(b, {
      send: (message: JsonObject) => {
        // Swallow the answer to the probe, as a server that ignores unknown methods would.
        if (message['id'] === 1 && dropped++ === 0) return Promise.resolve();
        return receive(message as never);
      },
    });
    await silent.connect(b);
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'auto' });
    await client.connect(a, { timeoutMs: 200 });
    expect(client.protocolVersion).toBe('2025-11-25');
    await client.close();
  });
});

import { describe, expect, it } from 'vitest';
import { ScriptedTransport } from '../../test/support/scriptedTransport.js';
import { connect } from '../../test/support/harness.js';
import { McpClient } from '../client.js';
import { ErrorCode } from '../jsonrpc/errors.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/versions.js';
import { createLinkedPair } from '../transports/memory.js';
import { McpServer } from './mcpServer.js';

function server(): McpServer {
  const s = new McpServer(
    {
      name: 'life',
      version: '1.2.3',
      title: 'Lifecycle',
      description: 'test',
      websiteUrl: 'https://example.com',
    },
    { instructions: 'Be nice' },
  );
  s.registerTool('noop', {}, () => 'ok');
  return s;
}

async function raw(s: McpServer) {
  const transport = new ScriptedTransport();
  const session = await s.connect(transport);
  const init = (version: string, id = 1) =>
    transport.inject({
      jsonrpc: '2.0',
      id,
      method: 'initialize',
      params: {
        protocolVersion: version,
        capabilities: {},
        clientInfo: { name: 'raw', version: '0' },
      },
    });
  return { transport, session, init };
}

describe('initialize and version negotiation', () => {
  for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
    it(`echoes ${version} and sends only what ${version} defines`, async () => {
      const c = await connect(server(), { version });
      expect(c.client.protocolVersion).toBe(version);
      expect(c.client.serverCapabilities).toMatchObject({
        tools: { listChanged: true },
        logging: {},
      });
      expect(c.client.instructions).toBe('Be nice');
      const info = c.client.serverInfo;
      expect(info?.title !== undefined).toBe(version >= '2025-06-18');
      expect(info?.websiteUrl !== undefined).toBe(version === '2025-11-25');
      expect(c.problems()).toEqual([]);
    });
  }

  it('answers an unknown version with its latest', async () => {
    const { transport, init } = await raw(server());
    init('1999-01-01');
    expect(await transport.next()).toMatchObject({
      id: 1,
      result: { protocolVersion: '2025-11-25' },
    });
  });

  it('answers with its own latest when configured with fewer revisions', async () => {
    const s = new McpServer(
      { name: 'old', version: '1' },
      { protocolVersions: ['2024-11-05', '2025-03-26'] },
    );
    const { transport, init } = await raw(s);
    init('2025-11-25');
    expect(await transport.next()).toMatchObject({ result: { protocolVersion: '2025-03-26' } });
  });

  it('a client refuses a version it does not accept, and closes', async () => {
    const s = new McpServer({ name: 'old', version: '1' }, { protocolVersions: ['2024-11-05'] });
    const [a, b] = createLinkedPair();
    await s.connect(b);
    const client = new McpClient(
      { name: 'c', version: '1' },
      { protocolEra: 'legacy', protocolVersions: ['2025-06-18', '2025-11-25'] },
    );
    await expect(client.connect(a)).rejects.toMatchObject({ code: 'unsupported-version' });
    await expect(client.listTools()).rejects.toMatchObject({ code: 'not-connected' });
  });

  it('refuses requests before initialize but answers ping', async () => {
    const { transport, init } = await raw(server());
    transport.inject({ jsonrpc: '2.0', id: 'p', method: 'ping' });
    expect(await transport.next()).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
    transport.inject({ jsonrpc: '2.0', id: 'l', method: 'tools/list' });
    expect(await transport.next()).toMatchObject({
      id: 'l',
      error: {
        code: ErrorCode.InvalidRequest,
        message: expect.stringContaining('before initialize'),
      },
    });
    init('2025-11-25', 2);
    expect(await transport.next()).toMatchObject({
      id: 2,
      result: { protocolVersion: '2025-11-25' },
    });
    transport.inject({ jsonrpc: '2.0', id: 'l2', method: 'tools/list' });
    expect(await transport.next()).toMatchObject({
      id: 'l2',
      result: { tools: [{ name: 'noop' }] },
    });
  });

  it('refuses a second initialize', async () => {
    const { transport, init } = await raw(server());
    init('2025-06-18', 1);
    await transport.next();
    init('2025-06-18', 2);
    expect(await transport.next()).toMatchObject({
      id: 2,
      error: { code: ErrorCode.InvalidRequest },
    });
  });

  it('refuses malformed initialize params with -32602', async () => {
    const { transport } = await raw(server());
    transport.inject({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: 20251125 },
    });
    expect(await transport.next()).toMatchObject({
      id: 1,
      error: { code: ErrorCode.InvalidParams },
    });
  });

  it('accepts batches only on 2025-03-26 and never initialize inside one', async () => {
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      const { transport, init } = await raw(server());
      init(version);
      await transport.next();
      transport.inject([
        { jsonrpc: '2.0', id: 10, method: 'ping' },
        { jsonrpc: '2.0', id: 11, method: 'tools/list' },
      ]);
      const reply = await transport.next();
      if (version === '2025-03-26') {
        expect(reply).toEqual(
          expect.arrayContaining([
            { jsonrpc: '2.0', id: 10, result: {} },
            expect.objectContaining({ id: 11 }),
          ]),
        );
        transport.inject([{ jsonrpc: '2.0', id: 12, method: 'initialize', params: {} }]);
        expect(await transport.next()).toEqual([
          expect.objectContaining({
            id: 12,
            error: expect.objectContaining({ code: ErrorCode.InvalidRequest }),
          }),
        ]);
      } else {
        expect(reply).toMatchObject({ error: { code: ErrorCode.InvalidRequest } });
        // 2025-11-25 omits the unreadable id; older revisions send null as JSON-RPC 2.0 requires.
        expect('id' in (reply as object)).toBe(version !== '2025-11-25');
      }
    }
  });

  it('sets the logging level and rejects an unknown one with -32602', async () => {
    const { transport, init } = await raw(server());
    init('2025-11-25');
    await transport.next();
    transport.inject({
      jsonrpc: '2.0',
      id: 2,
      method: 'logging/setLevel',
      params: { level: 'warning' },
    });
    expect(await transport.next()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    transport.inject({
      jsonrpc: '2.0',
      id: 3,
      method: 'logging/setLevel',
      params: { level: 'loud' },
    });
    expect(await transport.next()).toMatchObject({
      id: 3,
      error: { code: ErrorCode.InvalidParams },
    });
  });

  it('answers an unknown method with -32601 after initialize', async () => {
    const { transport, init } = await raw(server());
    init('2025-11-25');
    await transport.next();
    transport.inject({ jsonrpc: '2.0', id: 2, method: 'resources/list' });
    expect(await transport.next()).toMatchObject({
      id: 2,
      error: { code: ErrorCode.MethodNotFound },
    });
  });
});

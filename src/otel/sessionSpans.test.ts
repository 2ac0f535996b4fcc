// The session side of toolwire/otel, in memory: notifications can be left untraced, failures of
// the server's requests to the client are recorded on both sides by each side's rules, a client
// session that the server ended or that never started ends with its error type, a stateless
// HTTP "session" records no duration; and the network attributes as the convention spells them.
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { otelHarness } from '../../test/support/otel.js';
import { McpClient, type ClientHandlers } from '../client.js';
import { ErrorCode, RpcError } from '../jsonrpc/errors.js';
import { McpServer } from '../server.js';
import { createLinkedPair } from '../transports/memory.js';
import { clientTelemetry } from './clientTelemetry.js';
import { addNetwork, addPeer } from './network.js';
import { serverTelemetry } from './serverTelemetry.js';
import type { TelemetryOptions } from './instruments.js';

type Otel = ReturnType<typeof otelHarness>;

function traced(
  otel: Otel,
  options: Omit<TelemetryOptions, 'tracerProvider'> = {},
  roots: ClientHandlers['roots'] = () => [],
) {
  const server = new McpServer({ name: 's', version: '1' }, { onerror: () => {} });
  server.use(serverTelemetry({ ...otel.options, ...options }));
  server.registerTool('roots', {}, async (_args, ctx) => {
    ctx.log.info('listing');
    await ctx.listRoots();
    return 'listed';
  });
  const client = new McpClient(
    { name: 'c', version: '1' },
    {
      protocolEra: 'legacy',
      instrument: clientTelemetry({ ...otel.options, ...options }),
      handlers: { roots },
    },
  );
  return { server, client };
}

const names = (otel: Otel, kind: SpanKind) =>
  otel
    .spans()
    .filter((s) => s.kind === kind)
    .map((s) => s.name);

describe('session telemetry', () => {
  it('leaves notifications untraced with notifications: false', async () => {
    const otel = otelHarness();
    const { server, client } = traced(otel, { notifications: false });
    const [a, b] = createLinkedPair();
    await server.connect(b);
    await client.connect(a);
    await client.setLoggingLevel('info');
    await client.callTool('roots').catch(() => {});
    await client.close();
    expect(names(otel, SpanKind.SERVER)).not.toContain('notifications/initialized');
    expect(names(otel, SpanKind.CLIENT)).not.toContain('notifications/message');
    expect(names(otel, SpanKind.SERVER)).toContain('initialize');
    expect(names(otel, SpanKind.CLIENT)).toContain('roots/list');
  });

  it('records a request the client cannot answer by each side’s rules', async () => {
    const otel = otelHarness();
    const { server, client } = traced(otel, {}, () => {
      throw new RpcError(ErrorCode.InvalidParams, 'not these roots');
    });
    const [a, b] = createLinkedPair();
    await server.connect(b);
    await client.connect(a);
    // The handler lets the client's error through: the call fails with it.
    await expect(client.callTool('roots')).rejects.toMatchObject({ code: -32602 });
    const asked = otel.spans().find((s) => s.name === 'roots/list' && s.kind === SpanKind.CLIENT);
    const refused = otel.spans().find((s) => s.name === 'roots/list' && s.kind === SpanKind.SERVER);
    // The server (the sender) counts every JSON-RPC error; the client (the receiver) does not
    // count params it refuses as its own fault.
    expect(asked?.attributes['error.type']).toBe('-32602');
    expect(asked?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'not these roots' });
    expect(refused?.attributes['rpc.response.status_code']).toBe('-32602');
    expect(refused?.attributes).not.toHaveProperty('error.type');
    expect(refused?.parentSpanContext?.spanId).toBe(asked?.spanContext().spanId);
  });

  it('ends a client session the server ended with error.type closed', async () => {
    const otel = otelHarness();
    const { server, client } = traced(otel);
    const [a, b] = createLinkedPair();
    const session = await server.connect(b);
    await client.connect(a);
    await session.close();
    await new Promise((resolve) => setImmediate(resolve));
    const clientSessions = await otel.histogram('mcp.client.session.duration');
    expect(clientSessions?.points.map((p) => p.attributes['error.type'])).toEqual(['closed']);
    const serverSessions = await otel.histogram('mcp.server.session.duration');
    expect(serverSessions?.points[0]?.attributes).not.toHaveProperty('error.type');
  });

  it('ends a session whose handshake failed with the failure’s type', async () => {
    const otel = otelHarness();
    const server = new McpServer(
      { name: 's', version: '1' },
      { protocolVersions: ['2025-06-18'], onerror: () => {} },
    );
    const client = new McpClient(
      { name: 'c', version: '1' },
      {
        protocolEra: 'legacy',
        instrument: clientTelemetry(otel.options),
        protocolVersions: ['2025-11-25'],
      },
    );
    const [a, b] = createLinkedPair();
    await server.connect(b);
    await expect(client.connect(a)).rejects.toMatchObject({ code: 'unsupported-version' });
    const read = await otel.histogram('mcp.client.session.duration');
    expect(read?.points.map((p) => p.attributes['error.type'])).toEqual(['unsupported-version']);
  });

  it('records no duration for a stateless HTTP session (one request long)', async () => {
    const otel = otelHarness();
    const { server } = traced(otel);
    const [a, b] = createLinkedPair();
    const session = await server.connect(b, { transient: true, assumeVersion: '2025-06-18' });
    await a.start();
    await session.close();
    expect(await otel.histogram('mcp.server.session.duration')).toBeUndefined();
  });
});

describe('network attributes', () => {
  it('names the protocol and its version as the convention does, and the server on a client', () => {
    const over = (network: Parameters<typeof addNetwork>[1], httpVersion?: string) => {
      const attributes = {};
      addNetwork(attributes, network, httpVersion);
      return attributes;
    };
    expect(over({ networkTransport: 'pipe', network: undefined })).toEqual({
      'network.transport': 'pipe',
    });
    expect(over({ networkTransport: 'tcp', network: { protocolName: 'http' } }, '2.0')).toEqual({
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'network.protocol.version': '2',
    });
    expect(over({ networkTransport: 'tcp', network: undefined }, '1.1')).toEqual({
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'network.protocol.version': '1.1',
    });
    expect(
      over({
        networkTransport: 'tcp',
        network: {
          protocolName: 'http',
          protocolVersion: '1.1',
          serverAddress: 'mcp.example.com',
          serverPort: 443,
        },
      }),
    ).toEqual({
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'network.protocol.version': '1.1',
      'server.address': 'mcp.example.com',
      'server.port': 443,
    });
  });

  it('records the peer’s address and port only when the address is known', () => {
    const peer = (p: Parameters<typeof addPeer>[1]) => {
      const attributes = {};
      addPeer(attributes, p);
      return attributes;
    };
    expect(peer({ remoteAddress: '::1', remotePort: 50123 })).toEqual({
      'client.address': '::1',
      'client.port': 50123,
    });
    expect(peer({ remoteAddress: '10.0.0.1' })).toEqual({ 'client.address': '10.0.0.1' });
    expect(peer({ remotePort: 1 })).toEqual({});
    expect(peer(undefined)).toEqual({});
  });
});

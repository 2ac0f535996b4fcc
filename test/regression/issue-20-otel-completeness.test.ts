/**
 * Issue 20, "OpenTelemetry completeness": against the MCP semantic conventions, toolwire/otel
 * recorded no server span for `initialize`, no spans for notifications nor for the server's own
 * requests to the client (sampling, elicitation, roots), no `network.protocol.name`/`version`,
 * no `server.address`/`server.port` on the client nor `client.address`/`client.port` on the
 * server, and neither `mcp.client.session.duration` nor `mcp.server.session.duration`. A server
 * with `serverTelemetry()` and a client with `clientTelemetry()`, exported in memory by the
 * OpenTelemetry SDK, over the in-memory pair and over Streamable HTTP on 127.0.0.1.
 */
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import { createHttpHandler, StreamableHttpClientTransport } from '../../src/http.js';
import { serveHttp } from '../../src/node.js';
import { clientTelemetry, serverTelemetry } from '../../src/otel.js';
import { McpServer } from '../../src/server.js';
import { createLinkedPair } from '../../src/transports/memory.js';
import { otelHarness } from '../support/otel.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close().catch(() => {});
});

type Otel = ReturnType<typeof otelHarness>;

/** A traced server whose `ask` tool asks the client for everything a server may ask. */
function tracedServer(otel: Otel) {
  const server = new McpServer({ name: 'traced', version: '1' }, { onerror: () => {} });
  server.use(serverTelemetry(otel.options), { before: 'access' });
  server.registerTool('ask', {}, async (_args, ctx) => {
    ctx.log.info('asking');
    await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
      maxTokens: 5,
    });
    await ctx.elicit({
      message: 'name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    await ctx.listRoots();
    return 'asked';
  });
  server.registerTool('add', {}, () => '2');
  return server;
}

function tracedClient(otel: Otel) {
  return new McpClient(
    { name: 'traced-client', version: '1' },
    {
      protocolEra: 'legacy',
      instrument: clientTelemetry(otel.options),
      handlers: {
        sampling: () => ({
          role: 'assistant',
          content: { type: 'text', text: 'hello' },
          model: 'm',
        }),
        elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
        roots: () => [{ uri: 'file:///tmp', name: 'tmp' }],
      },
    },
  );
}

/** The one span of `name` and `kind`. */
function spanOf(spans: ReadableSpan[], name: string, kind: SpanKind): ReadableSpan {
  const found = spans.filter((s) => s.name === name && s.kind === kind);
  if (found.length !== 1)
    throw new Error(
      `expected one ${SpanKind[kind]} span "${name}", got ${found.length} among ${spans
        .map((s) => `${s.name} (${SpanKind[s.kind]})`)
        .join(', ')}`,
    );
  return found[0]!;
}

/** `child` is the remote child of `parent` (linked through `params._meta`). */
function expectChild(child: ReadableSpan, parent: ReadableSpan): void {
  expect(child.spanContext().traceId).toBe(parent.spanContext().traceId);
  expect(child.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
}

describe('issue 20: OpenTelemetry by the MCP semantic conventions', () => {
  it('initialize, notifications and the server’s requests to the client have spans on both sides', async () => {
    const otel = otelHarness();
    const [clientEnd, serverEnd] = createLinkedPair();
    const session = await tracedServer(otel).connect(serverEnd);
    const client = tracedClient(otel);
    await client.connect(clientEnd);
    open.push(client);
    await client.setLoggingLevel('info');
    await client.callTool('ask');
    const spans = otel.spans();

    // initialize: the server's span, child of the client's, with the negotiated revision.
    const init = spanOf(spans, 'initialize', SpanKind.SERVER);
    expectChild(init, spanOf(spans, 'initialize', SpanKind.CLIENT));
    expect(init.attributes).toMatchObject({
      'mcp.method.name': 'initialize',
      'mcp.protocol.version': '2025-11-25',
      'mcp.session.id': session.id,
      'jsonrpc.request.id': '1',
      'network.transport': 'inproc',
    });

    // A notification: a CLIENT span where it is sent, a SERVER span where it is received.
    const initialized = spanOf(spans, 'notifications/initialized', SpanKind.SERVER);
    expectChild(initialized, spanOf(spans, 'notifications/initialized', SpanKind.CLIENT));
    expect(initialized.attributes['mcp.method.name']).toBe('notifications/initialized');
    expect(initialized.attributes).not.toHaveProperty('jsonrpc.request.id');

    // The server's requests while serving tools/call: children of its tools/call span, each
    // answered under a SERVER span on the client; the log message the same way.
    const call = spanOf(spans, 'tools/call ask', SpanKind.SERVER);
    for (const method of [
      'sampling/createMessage',
      'elicitation/create',
      'roots/list',
      'notifications/message',
    ]) {
      const sent = spanOf(spans, method, SpanKind.CLIENT);
      const answered = spanOf(spans, method, SpanKind.SERVER);
      expectChild(sent, call);
      expectChild(answered, sent);
      expect(sent.attributes['mcp.method.name']).toBe(method);
      expect(sent.attributes['mcp.session.id']).toBe(session.id);
      expect(answered.attributes['mcp.protocol.version']).toBe('2025-11-25');
    }
    expect(spanOf(spans, 'roots/list', SpanKind.CLIENT).attributes['jsonrpc.request.id']).toMatch(
      /.+/,
    );

    // The histograms count them too, each on the side that sent or received them.
    const serverOps = await otel.histogram('mcp.server.operation.duration');
    const clientOps = await otel.histogram('mcp.client.operation.duration');
    const methods = (read: typeof serverOps) =>
      new Set(read?.points.map((p) => p.attributes['mcp.method.name']));
    expect([...methods(serverOps)]).toEqual(
      expect.arrayContaining(['initialize', 'notifications/initialized', 'sampling/createMessage']),
    );
    expect([...methods(clientOps)]).toEqual(
      expect.arrayContaining(['notifications/initialized', 'roots/list', 'notifications/message']),
    );
  });

  it('records the session durations when a session ends', async () => {
    const otel = otelHarness();
    const [clientEnd, serverEnd] = createLinkedPair();
    await tracedServer(otel).connect(serverEnd);
    const client = tracedClient(otel);
    await client.connect(clientEnd);
    await client.callTool('add');
    await client.close();
    await new Promise((resolve) => setImmediate(resolve));
    for (const name of ['mcp.client.session.duration', 'mcp.server.session.duration']) {
      const read = await otel.histogram(name);
      expect(read?.metric.descriptor.unit).toBe('s');
      expect(read?.points).toHaveLength(1);
      const point = read!.points[0]!;
      expect(point.value.count).toBe(1);
      expect(point.attributes).toMatchObject({
        'mcp.protocol.version': '2025-11-25',
        'network.transport': 'inproc',
      });
      expect(point.attributes).not.toHaveProperty('error.type'); // closed by the client
      expect(point.attributes).not.toHaveProperty('mcp.session.id'); // cardinality
    }
  });

  it('over Streamable HTTP: network.protocol.*, server.address/port and client.address/port', async () => {
    const otel = otelHarness();
    const handler = createHttpHandler(tracedServer(otel), { onerror: () => {} });
    const listener = await serveHttp(handler);
    open.push(listener, handler);
    const url = new URL(listener.url);
    const client = tracedClient(otel);
    await client.connect(new StreamableHttpClientTransport(url));
    open.push(client);
    await client.callTool('add');
    const spans = otel.spans();
    const port = Number(url.port);

    for (const name of ['initialize', 'tools/call add']) {
      const sent = spanOf(spans, name, SpanKind.CLIENT);
      const served = spanOf(spans, name, SpanKind.SERVER);
      expectChild(served, sent);
      expect(sent.attributes).toMatchObject({
        'network.transport': 'tcp',
        'network.protocol.name': 'http',
        'network.protocol.version': '1.1',
        'server.address': '127.0.0.1',
        'server.port': port,
      });
      expect(sent.attributes).not.toHaveProperty('client.address');
      expect(served.attributes).toMatchObject({
        'network.transport': 'tcp',
        'network.protocol.name': 'http',
        'network.protocol.version': '1.1',
        'client.address': '127.0.0.1',
      });
      expect(served.attributes['client.port']).toEqual(expect.any(Number));
      expect(served.attributes['client.port']).not.toBe(port);
      expect(served.attributes).not.toHaveProperty('server.address');
    }

    // The client's histogram names the server; the server's never names a client (cardinality).
    const clientOps = await otel.histogram('mcp.client.operation.duration');
    const call = clientOps?.points.find((p) => p.attributes['gen_ai.tool.name'] === 'add');
    expect(call?.attributes).toMatchObject({
      'server.address': '127.0.0.1',
      'server.port': port,
      'network.protocol.name': 'http',
    });
    const serverOps = await otel.histogram('mcp.server.operation.duration');
    const served = serverOps?.points.find((p) => p.attributes['gen_ai.tool.name'] === 'add');
    expect(served?.attributes['network.protocol.name']).toBe('http');
    expect(served?.attributes).not.toHaveProperty('client.address');
    expect(served?.attributes).not.toHaveProperty('client.port');
  });
});

// toolwire/otel end to end: a server with serverTelemetry() as its outermost middleware and a
// client with clientTelemetry(), over the in-memory pair, Streamable HTTP on 127.0.0.1 and stdio
// (the server a child process reporting its own spans); the client span is the parent of the
// server span through params._meta. And the optional peer dependency is loaded by toolwire/otel
// only: the other entry points bundle nothing of it and import it nowhere.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { McpClient } from '../../src/client.js';
import { createHttpHandler, StreamableHttpClientTransport } from '../../src/http.js';
import { serveHttp } from '../../src/node.js';
import { clientTelemetry, serverTelemetry } from '../../src/otel.js';
import { McpServer } from '../../src/server.js';
import { StdioClientTransport } from '../../src/stdio.js';
import { createLinkedPair } from '../../src/transports/memory.js';
import { otelHarness } from '../support/otel.js';
import { ROOT } from '../support/paths.js';

const OTEL_SERVER = `${ROOT}build/test/fixtures/otelServer.js`;

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close().catch(() => {});
});

function tracedServer(otel: ReturnType<typeof otelHarness>) {
  const server = new McpServer({ name: 'traced', version: '1' }, { onerror: () => {} });
  server.use(serverTelemetry(otel.options), { before: 'access' });
  const tracer = otel.tracerProvider.getTracer('app');
  server.registerTool(
    'add',
    { inputSchema: z.object({ a: z.number(), b: z.number() }) },
    (args) => {
      tracer.startSpan('add numbers').end();
      return String(args.a + args.b);
    },
  );
  server.registerTool('broken', {}, () => {
    throw new Error('kaboom');
  });
  return server;
}

function tracedClient(otel: ReturnType<typeof otelHarness>) {
  return new McpClient(
    { name: 'traced-client', version: '1' },
    { protocolEra: 'legacy', instrument: clientTelemetry(otel.options) },
  );
}

/** The SERVER and CLIENT spans of one name. */
function pair(spans: ReadableSpan[], name: string) {
  const client = spans.find((s) => s.name === name && s.kind === SpanKind.CLIENT);
  const server = spans.find((s) => s.name === name && s.kind === SpanKind.SERVER);
  if (!client || !server) throw new Error(`no client and server span "${name}"`);
  return { client, server };
}

/**
 * Calls `add` over Streamable HTTP on 127.0.0.1 and checks what every HTTP call shares: the
 * server span is the remote child of the client span, over tcp.
 */
async function callOverHttp(otel: ReturnType<typeof otelHarness>, stateless: boolean) {
  const handler = createHttpHandler(tracedServer(otel), { onerror: () => {}, stateless });
  const listener = await serveHttp(handler);
  open.push(listener, handler);
  const transport = new StreamableHttpClientTransport(listener.url);
  const client = tracedClient(otel);
  await client.connect(transport);
  open.push(client);
  await client.callTool('add', { a: 1, b: 1 });
  const { client: c, server: s } = pair(otel.spans(), 'tools/call add');
  expect(s.parentSpanContext?.spanId).toBe(c.spanContext().spanId);
  expect(s.parentSpanContext?.isRemote).toBe(true);
  expect(s.attributes['network.transport']).toBe('tcp');
  return { transport, c, s };
}

describe('toolwire/otel end to end', () => {
  it('in memory: client span → server span → the handler span; errors on both sides', async () => {
    const otel = otelHarness();
    const [clientEnd, serverEnd] = createLinkedPair();
    await tracedServer(otel).connect(serverEnd);
    const client = tracedClient(otel);
    await client.connect(clientEnd);
    open.push(client);

    expect(await client.callTool('add', { a: 2, b: 3 })).toMatchObject({
      content: [{ type: 'text', text: '5' }],
    });
    const spans = otel.spans();
    const { client: c, server: s } = pair(spans, 'tools/call add');
    expect(s.spanContext().traceId).toBe(c.spanContext().traceId);
    expect(s.parentSpanContext?.spanId).toBe(c.spanContext().spanId);
    // Taken from params._meta, not inherited in process: only an extracted parent is remote.
    expect(s.parentSpanContext?.isRemote).toBe(true);
    expect(s.attributes['network.transport']).toBe('inproc');
    expect(s.attributes['gen_ai.operation.name']).toBe('execute_tool');
    const inner = otel.span('add numbers');
    expect(inner.parentSpanContext?.spanId).toBe(s.spanContext().spanId);
    // tools/list (callTool's lookup) is traced on both sides too, and linked the same way.
    const list = pair(spans, 'tools/list');
    expect(list.server.parentSpanContext?.spanId).toBe(list.client.spanContext().spanId);

    // A handler that throws: the server answers isError, both sides record tool_error.
    await client.callTool('broken');
    const broken = pair(otel.spans(), 'tools/call broken');
    expect(broken.client.attributes['error.type']).toBe('tool_error');
    expect(broken.server.attributes['error.type']).toBe('tool_error');

    // An unknown tool: -32602 is the caller's mistake for the server, an error for the client.
    await expect(client.callTool('nope')).rejects.toMatchObject({ code: -32602 });
    const nope = otel.spans().filter((s) => s.attributes['gen_ai.tool.name'] === 'nope');
    const server = nope.find((s) => s.kind === SpanKind.SERVER);
    const caller = nope.find((s) => s.kind === SpanKind.CLIENT);
    expect(server?.name).toBe('tools/call');
    expect(server?.attributes['rpc.response.status_code']).toBe('-32602');
    expect(server?.status.code).toBe(SpanStatusCode.UNSET);
    expect(caller?.name).toBe('tools/call nope');
    expect(caller?.attributes['error.type']).toBe('-32602');
    expect(caller?.status.code).toBe(SpanStatusCode.ERROR);

    const durations = await otel.histogram('mcp.server.operation.duration');
    expect(durations?.points.length).toBeGreaterThanOrEqual(3);
  });

  it('over Streamable HTTP: linked across the socket, one session id on both sides', async () => {
    const otel = otelHarness();
    const { transport, c, s } = await callOverHttp(otel, false);
    expect(c.attributes['network.transport']).toBe('tcp');
    expect(transport.sessionId).toMatch(/.+/);
    expect(s.attributes['mcp.session.id']).toBe(transport.sessionId);
    expect(c.attributes['mcp.session.id']).toBe(transport.sessionId);
    // initialize learns the session id from its own answer; the server's span has it from the start.
    const init = pair(otel.spans(), 'initialize');
    expect(init.client.attributes['mcp.session.id']).toBe(transport.sessionId);
    expect(init.server.attributes['mcp.session.id']).toBe(transport.sessionId);
    expect(init.server.parentSpanContext?.spanId).toBe(init.client.spanContext().spanId);
  });

  it('over stateless Streamable HTTP: each request its own session, still linked', async () => {
    const otel = otelHarness();
    const { c } = await callOverHttp(otel, true);
    expect(c.attributes).not.toHaveProperty('mcp.session.id'); // no Mcp-Session-Id when stateless
  });

  it('over stdio: the server process parents its spans on the client span', async () => {
    const otel = otelHarness();
    const client = tracedClient(otel);
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [OTEL_SERVER] }),
    );
    open.push(client);
    await client.callTool('work');
    const reported = await client.callTool('spans');
    const spans = (reported.structuredContent as { spans: RemoteSpan[] }).spans;
    const server = spans.find((s) => s.name === 'tools/call work');
    const step = spans.find((s) => s.name === 'work step');
    const c = otel.span('tools/call work');
    expect(server?.kind).toBe(SpanKind.SERVER);
    expect(server?.traceId).toBe(c.spanContext().traceId);
    expect(server?.parentSpanId).toBe(c.spanContext().spanId);
    expect(server?.attributes['network.transport']).toBe('pipe');
    expect(c.attributes['network.transport']).toBe('pipe');
    expect(step?.parentSpanId).toBe(server?.spanId);
  });
});

interface RemoteSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  attributes: Record<string, unknown>;
}

describe('@opentelemetry/api is loaded by toolwire/otel only', () => {
  /** Imports `specifiers` in a fresh Node process in which resolving @opentelemetry/* throws. */
  function importWithoutOtel(specifiers: string[]) {
    const hook = `export async function resolve(specifier, context, next) {
  if (specifier.startsWith('@opentelemetry/')) throw new Error('resolved ' + specifier);
  return next(specifier, context);
}`;
    const script = `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));
for (const specifier of ${JSON.stringify(specifiers)}) await import(specifier);
console.log('imported');`;
    return spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
  }

  it('importing every other entry point resolves nothing of it', () => {
    const entries = ['', '/server', '/client', '/stdio', '/http', '/node', '/redis'].map(
      (e) => `toolwire${e}`,
    );
    const run = importWithoutOtel(entries);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('imported\n');
  });

  it('importing toolwire/otel does (so the check above can fail)', () => {
    const run = importWithoutOtel(['toolwire/otel']);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('resolved @opentelemetry/api');
  });

  it('no bundled file but dist/otel.js names it', () => {
    const dist = join(ROOT, 'dist');
    const bundles = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.js'),
    );
    expect(bundles).toContain('otel.js');
    const naming = bundles.filter((f) =>
      readFileSync(join(dist, f), 'utf8').includes('@opentelemetry/'),
    );
    expect(naming).toEqual(['otel.js']);
  });
});

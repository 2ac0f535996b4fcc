// The client instrumentation against a real server over the in-memory pair: CLIENT spans, the
// trace context the server receives in params._meta (merged with the caller's _meta), errors,
// task methods and the duration histogram. Every message is checked against the spec schemas.
import {
  context,
  createTraceState,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
} from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { connect } from '../../test/support/harness.js';
import { otelHarness, REMOTE } from '../../test/support/otel.js';
import { sleep } from '../../test/support/scriptedTransport.js';
import { sleep as sleepUnlessAborted } from '../jsonrpc/sleep.js';
import type { Meta } from '../protocol/types.js';
import { McpServer } from '../server.js';
import { clientTelemetry, type ClientTelemetryOptions } from './clientTelemetry.js';
import { DURATION_BUCKETS } from './semconv.js';

function server(seen: Meta[] = []) {
  const s = new McpServer({ name: 'otel', version: '1' }, { onerror: () => {} });
  s.registerTool(
    'add',
    { inputSchema: z.object({ a: z.number(), b: z.number() }) },
    (args, ctx) => {
      seen.push(ctx.meta ?? {});
      return String(args.a + args.b);
    },
  );
  s.registerTool('fail', {}, () => ({ content: [{ type: 'text', text: 'no' }], isError: true }));
  s.registerTool('slow', {}, async (_args, ctx) => {
    await sleepUnlessAborted(2_000, ctx.signal);
    return 'late';
  });
  s.registerTool('report', { execution: { taskSupport: 'required' } }, async () => {
    await sleep(30);
    return 'written';
  });
  return s;
}

async function setup(options: Omit<ClientTelemetryOptions, 'tracerProvider'> = {}) {
  const otel = otelHarness();
  const seen: Meta[] = [];
  const connected = await connect(server(seen), {
    client: { instrument: clientTelemetry({ ...otel.options, ...options }) },
  });
  return { otel, seen, client: connected.client };
}

describe('clientTelemetry: spans', () => {
  it('records initialize with the revision and transport it learns', async () => {
    const { otel } = await setup();
    const span = otel.span('initialize');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.attributes).toEqual({
      'mcp.method.name': 'initialize',
      'mcp.protocol.version': '2025-11-25',
      'jsonrpc.request.id': '1',
      'network.transport': 'inproc',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('records tools/call as a CLIENT span named after the tool, under the caller span', async () => {
    const { otel, client } = await setup();
    const tracer = otel.tracerProvider.getTracer('agent');
    await tracer.startActiveSpan('invoke_agent', async (agent) => {
      await client.callTool('add', { a: 1, b: 2 });
      agent.end();
    });
    const span = otel.span('tools/call add');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.parentSpanContext?.spanId).toBe(otel.span('invoke_agent').spanContext().spanId);
    expect(span.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'mcp.protocol.version': '2025-11-25',
      'jsonrpc.request.id': expect.stringMatching(/^\d+$/),
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'add',
      'network.transport': 'inproc',
    });
    // The listing callTool made to find the tool's schema is a span of its own.
    expect(otel.span('tools/list').attributes['gen_ai.tool.name']).toBeUndefined();
  });

  it('records a JSON-RPC error by its code (every code is an error on the client)', async () => {
    const { otel, client } = await setup();
    await expect(client.callTool('nope')).rejects.toMatchObject({ code: -32602 });
    const span = otel.span('tools/call nope');
    expect(span.attributes['error.type']).toBe('-32602');
    expect(span.attributes['rpc.response.status_code']).toBe('-32602');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.status.message).toContain('nope');
  });

  it('records an isError result as tool_error', async () => {
    const { otel, client } = await setup();
    expect((await client.callTool('fail')).isError).toBe(true);
    const span = otel.span('tools/call fail');
    expect(span.attributes['error.type']).toBe('tool_error');
    expect(span.attributes).not.toHaveProperty('rpc.response.status_code');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('records a local failure by its code: timeout', async () => {
    const { otel, client } = await setup();
    await expect(client.callTool('slow', {}, { timeoutMs: 50 })).rejects.toMatchObject({
      code: 'timeout',
    });
    const span = otel.span('tools/call slow');
    expect(span.attributes['error.type']).toBe('timeout');
    expect(span.attributes).not.toHaveProperty('rpc.response.status_code');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('records the task methods a task-augmented call makes, and the task calls', async () => {
    const { otel, client } = await setup();
    const result = await client.callTool('report');
    expect(result.content).toEqual([{ type: 'text', text: 'written' }]);
    const { tasks } = await client.listTasks();
    await client.getTask(tasks[0]!.taskId);
    const names = otel.spans().map((s) => s.name);
    expect(names).toContain('tools/call report');
    expect(names).toContain('tasks/result');
    expect(names).toContain('tasks/list');
    expect(names).toContain('tasks/get');
    for (const name of ['tasks/result', 'tasks/list']) {
      expect(otel.span(name).attributes['mcp.method.name']).toBe(name);
      expect(otel.span(name).attributes).not.toHaveProperty('gen_ai.operation.name');
    }
  });
});

describe('clientTelemetry: trace context in params._meta', () => {
  it('injects traceparent so the server sees the client span as the parent', async () => {
    const { otel, seen, client } = await setup();
    await client.callTool('add', { a: 1, b: 2 });
    const span = otel.span('tools/call add').spanContext();
    expect(seen[0]).toEqual({ traceparent: `00-${span.traceId}-${span.spanId}-01` });
  });

  it('carries tracestate on', async () => {
    const { seen, client } = await setup();
    const remote = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: REMOTE.traceId,
      spanId: REMOTE.spanId,
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
      traceState: createTraceState(REMOTE.tracestate),
    });
    await context.with(remote, () => client.callTool('add', { a: 1, b: 2 }));
    expect(seen[0]?.['traceparent']).toMatch(new RegExp(`^00-${REMOTE.traceId}-[0-9a-f]{16}-01$`));
    expect(seen[0]?.['tracestate']).toBe(REMOTE.tracestate);
  });

  it("merges with the caller's _meta and never overwrites its keys", async () => {
    const { seen, client } = await setup();
    const own = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    await client.callTool(
      'add',
      { a: 1, b: 2 },
      { meta: { traceparent: own, 'example.com/tenant': 'acme' }, onprogress: () => {} },
    );
    await client.callTool('add', { a: 1, b: 2 }, { meta: { 'example.com/tenant': 'acme' } });
    expect(seen[0]).toEqual({
      traceparent: own,
      'example.com/tenant': 'acme',
      progressToken: expect.anything(),
    });
    expect(seen[1]).toEqual({
      traceparent: expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/),
      'example.com/tenant': 'acme',
    });
  });
});

describe('clientTelemetry: arguments, results and the histogram', () => {
  it('records arguments and results only when asked', async () => {
    const quiet = await setup();
    await quiet.client.callTool('add', { a: 1, b: 2 });
    const keys = Object.keys(quiet.otel.span('tools/call add').attributes);
    expect(keys).not.toContain('gen_ai.tool.call.arguments');
    expect(keys).not.toContain('gen_ai.tool.call.result');

    const loud = await setup({ recordArguments: true, recordResults: true });
    await loud.client.callTool('add', { a: 1, b: 2 });
    const span = loud.otel.span('tools/call add');
    expect(span.attributes['gen_ai.tool.call.arguments']).toBe('{"a":1,"b":2}');
    expect(JSON.parse(span.attributes['gen_ai.tool.call.result'] as string)).toEqual({
      content: [{ type: 'text', text: '3' }],
    });
  });

  it('records mcp.client.operation.duration in seconds with low-cardinality attributes', async () => {
    const { otel, client } = await setup();
    await client.callTool('add', { a: 1, b: 2 });
    await client.callTool('fail');
    const read = await otel.histogram('mcp.client.operation.duration');
    expect(read?.metric.descriptor.unit).toBe('s');
    const calls = read?.points.filter((p) => p.attributes['mcp.method.name'] === 'tools/call');
    expect(calls?.map((p) => p.attributes)).toEqual([
      {
        'mcp.method.name': 'tools/call',
        'mcp.protocol.version': '2025-11-25',
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'add',
        'network.transport': 'inproc',
      },
      {
        'mcp.method.name': 'tools/call',
        'mcp.protocol.version': '2025-11-25',
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'fail',
        'network.transport': 'inproc',
        'error.type': 'tool_error',
      },
    ]);
    expect(calls?.[0]?.value.buckets.boundaries).toEqual(DURATION_BUCKETS);
    expect(calls?.[0]?.value.count).toBe(1);
  });
});

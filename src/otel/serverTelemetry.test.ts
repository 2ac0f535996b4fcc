// The server middleware, called directly with a synthetic request and next(): span names, kinds,
// attributes and the duration histogram exactly as the semantic conventions for MCP say.
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { otelHarness, REMOTE } from '../../test/support/otel.js';
import { RpcError } from '../jsonrpc/errors.js';
import type { JsonObject } from '../jsonrpc/types.js';
import { ToolError } from '../server/results.js';
import type { MiddlewareRequest } from '../server/middleware/middleware.js';
import { DURATION_BUCKETS } from './semconv.js';
import { serverTelemetry } from './serverTelemetry.js';

function request(over: Partial<MiddlewareRequest> = {}): MiddlewareRequest {
  return {
    method: 'tools/call',
    params: { name: 'add', arguments: { a: 1, b: 2 } },
    requestId: 7,
    session: {
      id: 'session-1',
      protocolVersion: '2025-11-25',
      clientInfo: { name: 'c', version: '1' },
      clientCapabilities: {},
    },
    identity: undefined,
    clientAddress: undefined,
    networkTransport: 'pipe',
    network: undefined,
    peer: undefined,
    httpVersion: undefined,
    tool: { name: 'add', inputSchema: { type: 'object' } },
    signal: new AbortController().signal,
    ...over,
  };
}

const OK: JsonObject = { content: [{ type: 'text', text: '3' }] };

describe('serverTelemetry: spans', () => {
  it('records a tools/call as a SERVER span named after the tool, with the semconv attributes', async () => {
    const otel = otelHarness();
    const mw = serverTelemetry(otel.options);
    expect(await mw(request(), async () => OK)).toBe(OK);
    const span = otel.span('tools/call add');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.instrumentationScope.name).toBe('toolwire');
    expect(span.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'mcp.protocol.version': '2025-11-25',
      'mcp.session.id': 'session-1',
      'jsonrpc.request.id': '7',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'add',
      'network.transport': 'pipe',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.links).toEqual([]);
  });

  it('names other methods by the method alone, without the tool attributes', async () => {
    const otel = otelHarness();
    const mw = serverTelemetry(otel.options);
    await mw(
      request({ method: 'tools/list', params: undefined, tool: undefined, requestId: 'r-1' }),
      async () => ({ tools: [] }),
    );
    await mw(
      request({ method: 'tasks/get', params: { taskId: 't' }, tool: undefined }),
      async () => ({}),
    );
    const list = otel.span('tools/list');
    expect(list.attributes).toEqual({
      'mcp.method.name': 'tools/list',
      'mcp.protocol.version': '2025-11-25',
      'mcp.session.id': 'session-1',
      'jsonrpc.request.id': 'r-1',
      'network.transport': 'pipe',
    });
    expect(otel.span('tasks/get').attributes['gen_ai.operation.name']).toBeUndefined();
  });

  it('leaves network.transport out when the transport does not say', async () => {
    const otel = otelHarness();
    await serverTelemetry(otel.options)(request({ networkTransport: undefined }), async () => OK);
    expect(otel.span('tools/call add').attributes).not.toHaveProperty('network.transport');
  });

  it('marks an isError result as error.type tool_error with an ERROR status', async () => {
    const otel = otelHarness();
    const failed = { content: [{ type: 'text', text: 'no' }], isError: true };
    await serverTelemetry(otel.options)(request(), async () => failed);
    const span = otel.span('tools/call add');
    expect(span.attributes['error.type']).toBe('tool_error');
    expect(span.attributes).not.toHaveProperty('rpc.response.status_code');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('marks a ToolError thrown on the way (answered as isError) as tool_error', async () => {
    const otel = otelHarness();
    const thrown = new ToolError('quota used up');
    await expect(
      serverTelemetry(otel.options)(request(), async () => {
        throw thrown;
      }),
    ).rejects.toBe(thrown);
    expect(otel.span('tools/call add').attributes['error.type']).toBe('tool_error');
  });

  it('records an unknown tool: -32602 as rpc.response.status_code, not an error of the server', async () => {
    const otel = otelHarness();
    const refusal = new RpcError(-32602, 'Unknown tool: nope');
    await expect(
      serverTelemetry(otel.options)(
        request({ params: { name: 'nope', arguments: {} }, tool: undefined }),
        async () => {
          throw refusal;
        },
      ),
    ).rejects.toBe(refusal);
    // The caller's made-up name stays out of the span name (cardinality), not out of the span.
    const span = otel.span('tools/call');
    expect(span.attributes['gen_ai.tool.name']).toBe('nope');
    expect(span.attributes['rpc.response.status_code']).toBe('-32602');
    expect(span.attributes).not.toHaveProperty('error.type');
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('records a server-side JSON-RPC error by its code, with the error message as status', async () => {
    const otel = otelHarness();
    await expect(
      serverTelemetry(otel.options)(request(), async () => {
        throw new RpcError(-32000, 'Too many requests in flight');
      }),
    ).rejects.toThrow('Too many');
    const span = otel.span('tools/call add');
    expect(span.attributes['error.type']).toBe('-32000');
    expect(span.attributes['rpc.response.status_code']).toBe('-32000');
    expect(span.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'Too many requests in flight',
    });
  });

  it('records an unexpected exception as the -32603 the client gets, keeping it as an event', async () => {
    const otel = otelHarness();
    const bug = new TypeError('x is undefined');
    await expect(
      serverTelemetry(otel.options)(request({ method: 'tools/list', tool: undefined }), () =>
        Promise.reject(bug),
      ),
    ).rejects.toBe(bug);
    const span = otel.span('tools/list');
    expect(span.attributes['error.type']).toBe('-32603');
    expect(span.attributes['rpc.response.status_code']).toBe('-32603');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Internal error' });
    expect(span.events.map((e) => e.name)).toEqual(['exception']);
    expect(span.events[0]?.attributes?.['exception.type']).toBe('TypeError');
    expect(span.events[0]?.attributes?.['exception.message']).toBe('x is undefined');
  });

  it('adds the spanAttributes of the option to the span only', async () => {
    const otel = otelHarness();
    await serverTelemetry({
      ...otel.options,
      spanAttributes: (r) => ({ 'app.caller': r.identity?.id ?? 'anonymous' }),
    })(request(), async () => OK);
    expect(otel.span('tools/call add').attributes['app.caller']).toBe('anonymous');
    const read = await otel.histogram('mcp.server.operation.duration');
    expect(read?.points[0]?.attributes).not.toHaveProperty('app.caller');
  });
});

describe('serverTelemetry: a throwing spanAttributes hook', () => {
  it('fails nothing: the request is served and traced without the extra attributes', async () => {
    const otel = otelHarness();
    const mw = serverTelemetry({
      ...otel.options,
      spanAttributes: () => {
        throw new Error('hook bug');
      },
    });
    expect(await mw(request(), async () => OK)).toBe(OK);
    expect(otel.span('tools/call add').attributes['mcp.method.name']).toBe('tools/call');
  });
});

describe('serverTelemetry: trace context from params._meta', () => {
  it('takes traceparent and tracestate as the remote parent', async () => {
    const otel = otelHarness();
    const params = {
      name: 'add',
      arguments: {},
      _meta: { traceparent: REMOTE.traceparent, tracestate: REMOTE.tracestate },
    };
    await serverTelemetry(otel.options)(request({ params }), async () => OK);
    const span = otel.span('tools/call add');
    expect(span.spanContext().traceId).toBe(REMOTE.traceId);
    expect(span.parentSpanContext?.spanId).toBe(REMOTE.spanId);
    expect(span.parentSpanContext?.isRemote).toBe(true);
    expect(span.spanContext().traceState?.serialize()).toBe(REMOTE.tracestate);
  });

  it('ignores malformed values: the span is a root, and the request goes on', async () => {
    const otel = otelHarness();
    const mw = serverTelemetry(otel.options);
    const metas: unknown[] = [
      { traceparent: 'garbage' },
      { traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-01' }, // zero trace id
      { traceparent: 42, tracestate: ['a=b'] },
      { traceparent: { nested: REMOTE.traceparent } },
      'not an object',
      [REMOTE.traceparent],
      null,
    ];
    for (const meta of metas) {
      const params = { name: 'add', _meta: meta } as JsonObject;
      expect(await mw(request({ params }), async () => OK)).toBe(OK);
    }
    const spans = otel.spans();
    expect(spans).toHaveLength(metas.length);
    for (const span of spans) expect(span.parentSpanContext).toBeUndefined();
  });

  it('without _meta context, nests under the ambient span', async () => {
    const otel = otelHarness();
    const ambient = otel.tracerProvider.getTracer('http').startSpan('POST /mcp');
    await context.with(trace.setSpan(context.active(), ambient), () =>
      serverTelemetry(otel.options)(request(), async () => OK),
    );
    ambient.end();
    const span = otel.span('tools/call add');
    expect(span.parentSpanContext?.spanId).toBe(ambient.spanContext().spanId);
    expect(span.links).toEqual([]);
  });

  it('with both, takes _meta as the parent and links the ambient span', async () => {
    const otel = otelHarness();
    const ambient = otel.tracerProvider.getTracer('http').startSpan('POST /mcp');
    const params = { name: 'add', _meta: { traceparent: REMOTE.traceparent } };
    await context.with(trace.setSpan(context.active(), ambient), () =>
      serverTelemetry(otel.options)(request({ params }), async () => OK),
    );
    ambient.end();
    const span = otel.span('tools/call add');
    expect(span.parentSpanContext?.spanId).toBe(REMOTE.spanId);
    expect(span.links.map((l) => l.context.spanId)).toEqual([ambient.spanContext().spanId]);
  });

  it('runs the handler inside the span: spans it starts, even after an await, are children', async () => {
    const otel = otelHarness();
    const tracer = otel.tracerProvider.getTracer('app');
    await serverTelemetry(otel.options)(request(), async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      tracer.startSpan('db query').end();
      return OK;
    });
    const server = otel.span('tools/call add');
    const child = otel.span('db query');
    expect(child.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(child.spanContext().traceId).toBe(server.spanContext().traceId);
  });

  it('uses the propagator registered with the API when none is given', async () => {
    const otel = otelHarness();
    propagation.setGlobalPropagator(otel.propagator);
    try {
      const params = { name: 'add', _meta: { traceparent: REMOTE.traceparent } };
      await serverTelemetry({ tracerProvider: otel.tracerProvider })(
        request({ params }),
        async () => OK,
      );
      expect(otel.span('tools/call add').parentSpanContext?.spanId).toBe(REMOTE.spanId);
    } finally {
      propagation.disable();
    }
  });
});

describe('serverTelemetry: arguments and results', () => {
  const big = { text: 'x'.repeat(10_000) };

  it('records neither by default', async () => {
    const otel = otelHarness();
    await serverTelemetry(otel.options)(request(), async () => OK);
    const keys = Object.keys(otel.span('tools/call add').attributes);
    expect(keys).not.toContain('gen_ai.tool.call.arguments');
    expect(keys).not.toContain('gen_ai.tool.call.result');
  });

  it('records them as JSON when asked, cut to maxRecordedLength', async () => {
    const otel = otelHarness();
    const mw = serverTelemetry({ ...otel.options, recordArguments: true, recordResults: true });
    await mw(request(), async () => OK);
    const span = otel.span('tools/call add');
    expect(span.attributes['gen_ai.tool.call.arguments']).toBe('{"a":1,"b":2}');
    expect(span.attributes['gen_ai.tool.call.result']).toBe(JSON.stringify(OK));

    otel.exporter.reset();
    const cut = serverTelemetry({ ...otel.options, recordArguments: true, maxRecordedLength: 100 });
    await cut(request({ params: { name: 'add', arguments: big } }), async () => OK);
    const recorded = otel.span('tools/call add').attributes['gen_ai.tool.call.arguments'];
    expect(recorded).toHaveLength(100);
    expect(recorded).toBe(`${JSON.stringify(big).slice(0, 99)}…`);
  });

  it('does not record the result of a failed call', async () => {
    const otel = otelHarness();
    const mw = serverTelemetry({ ...otel.options, recordResults: true });
    await mw(request(), async () => ({ content: [], isError: true }));
    expect(otel.span('tools/call add').attributes).not.toHaveProperty('gen_ai.tool.call.result');
  });

  it('refuses a maxRecordedLength that is not a positive integer', () => {
    expect(() => serverTelemetry({ maxRecordedLength: 0 })).toThrow(RangeError);
    expect(() => serverTelemetry({ maxRecordedLength: 1.5 })).toThrow(RangeError);
  });
});

describe('serverTelemetry: mcp.server.operation.duration', () => {
  it('is a histogram in seconds with the convention buckets and low-cardinality attributes', async () => {
    const otel = otelHarness();
    const mw = serverTelemetry(otel.options);
    await mw(request(), async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return OK;
    });
    await mw(request(), async () => ({ content: [], isError: true }));
    await expect(
      mw(request({ params: { name: 'nope' }, tool: undefined }), async () => {
        throw new RpcError(-32602, 'Unknown tool: nope');
      }),
    ).rejects.toThrow('Unknown tool');
    const read = await otel.histogram('mcp.server.operation.duration');
    expect(read?.metric.descriptor.unit).toBe('s');
    const ok = read?.points.find(
      (p) => p.attributes['gen_ai.tool.name'] === 'add' && !p.attributes['error.type'],
    );
    const base = {
      'mcp.method.name': 'tools/call',
      'mcp.protocol.version': '2025-11-25',
      'gen_ai.operation.name': 'execute_tool',
      'network.transport': 'pipe',
    };
    const points = read?.points.map((p) => p.attributes);
    expect(points).toHaveLength(3);
    expect(points).toContainEqual({ ...base, 'gen_ai.tool.name': 'add' });
    expect(points).toContainEqual({
      ...base,
      'gen_ai.tool.name': 'add',
      'error.type': 'tool_error',
    });
    // The unknown name is not a metric attribute: any string a caller sends would be a series.
    expect(points).toContainEqual({ ...base, 'rpc.response.status_code': '-32602' });
    expect(ok?.value.buckets.boundaries).toEqual(DURATION_BUCKETS);
    expect(ok?.value.count).toBe(1);
    // Seconds, not milliseconds: the 20 ms call is about 0.02.
    expect(ok?.value.sum).toBeGreaterThanOrEqual(0.015);
    expect(ok?.value.sum).toBeLessThan(10);
  });
});

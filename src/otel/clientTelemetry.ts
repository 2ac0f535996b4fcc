/**
 * @module Client telemetry as the client's instrumentation hook: a CLIENT span per request the
 * client sends, named `{mcp.method.name} {gen_ai.tool.name}`, its trace context injected into
 * `params._meta` so the server's span becomes its child, and the `mcp.client.operation.duration`
 * histogram.
 */
import { context, SpanKind, trace, type Attributes } from '@opentelemetry/api';
import type { ClientInstrumentation, ClientRequest } from '../client/instrumentation.js';
import type { JsonObject } from '../jsonrpc/types.js';
import { extraAttributes, Instruments, type TelemetryOptions } from './instruments.js';
import { clientErrorOutcome, recordOutcome, resultOutcome, type Outcome } from './outcome.js';
import { recordedJson } from './payload.js';
import { injectContext } from './propagation.js';
import { ATTR, EXECUTE_TOOL, METRICS, spanName, toolNameOf } from './semconv.js';

/** Options of {@link clientTelemetry}. */
export interface ClientTelemetryOptions extends TelemetryOptions {
  /** Further attributes for a request's span (not the histogram: keep its cardinality low). */
  spanAttributes?: (request: ClientRequest) => Attributes | undefined;
}

/**
 * The client's instrumentation (`new McpClient(info, { instrument: clientTelemetry() })`): traces
 * and times every request by the OpenTelemetry semantic conventions for MCP.
 */
export function clientTelemetry(options: ClientTelemetryOptions = {}): ClientInstrumentation {
  const instruments = new Instruments(options, {
    name: METRICS.client,
    description:
      'The duration of the MCP request as observed on the sender from the time it was sent until the response is received.',
  });
  return async (request, send) => {
    const started = performance.now();
    const { method, params, session } = request;
    const tool = toolNameOf(method, params);
    const metricAttributes: Attributes = { [ATTR.methodName]: method };
    if (method === 'tools/call') metricAttributes[ATTR.operationName] = EXECUTE_TOOL;
    if (tool !== undefined) metricAttributes[ATTR.toolName] = tool;
    if (session.protocolVersion !== undefined)
      metricAttributes[ATTR.protocolVersion] = session.protocolVersion;
    if (session.networkTransport !== undefined)
      metricAttributes[ATTR.networkTransport] = session.networkTransport;

    const spanAttributes: Attributes = {
      ...metricAttributes,
      [ATTR.requestId]: String(request.id),
    };
    if (session.sessionId !== undefined) spanAttributes[ATTR.sessionId] = session.sessionId;
    if (options.recordArguments && tool !== undefined && params?.['arguments'] !== undefined) {
      const json = recordedJson(params['arguments'], instruments.maxRecordedLength);
      if (json !== undefined) spanAttributes[ATTR.toolCallArguments] = json;
    }
    if (options.spanAttributes)
      Object.assign(spanAttributes, extraAttributes(options.spanAttributes, request));

    const parent = context.active();
    const span = instruments.tracer.startSpan(
      spanName(method, tool),
      { kind: SpanKind.CLIENT, attributes: spanAttributes },
      parent,
    );
    const finish = (outcome: Outcome): void => {
      // Over HTTP, `initialize` learns the session id from its answer.
      if (spanAttributes[ATTR.sessionId] === undefined && session.sessionId !== undefined)
        span.setAttribute(ATTR.sessionId, session.sessionId);
      recordOutcome(outcome, span, metricAttributes);
      span.end();
      instruments.duration.record((performance.now() - started) / 1000, metricAttributes);
    };
    let result: JsonObject;
    try {
      result = await send(
        injectContext(trace.setSpan(parent, span), params, instruments.propagator),
      );
    } catch (error) {
      finish(clientErrorOutcome(error));
      throw error;
    }
    // The revision is negotiated by this very request: its answer names it.
    if (method === 'initialize' && typeof result['protocolVersion'] === 'string') {
      metricAttributes[ATTR.protocolVersion] = result['protocolVersion'];
      span.setAttribute(ATTR.protocolVersion, result['protocolVersion']);
    }
    const outcome = resultOutcome(method, result);
    if (options.recordResults && tool !== undefined && outcome.errorType === undefined) {
      const json = recordedJson(result, instruments.maxRecordedLength);
      if (json !== undefined) span.setAttribute(ATTR.toolCallResult, json);
    }
    finish(outcome);
    return result;
  };
}

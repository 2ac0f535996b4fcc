/**
 * @module Client telemetry as the client's instrumentation hook: a CLIENT span per request the
 * client sends, named `{mcp.method.name} {gen_ai.tool.name}`, its trace context injected into
 * `params._meta` so the server's span becomes its child, and the `mcp.client.operation.duration`
 * histogram; and for the rest of each session (sessionSpans.ts), the server's requests and the
 * notifications both ways, and the session's duration.
 */
import { context, SpanKind, trace, type Attributes } from '@opentelemetry/api';
import type {
  ClientInstrumentation,
  ClientRequest,
  ClientSessionView,
  ToolCallView,
} from '../client/instrumentation.js';
import { ToolCallSpan } from './toolCallSpan.js';
import { INITIALIZE, TOOLS_CALL } from '../jsonrpc/methods.js';
import type { JsonObject } from '../jsonrpc/types.js';
import { extraAttributes, Instruments, type TelemetryOptions } from './instruments.js';
import { addNetwork } from './network.js';
import { clientErrorOutcome, recordOutcome, resultOutcome, type Outcome } from './outcome.js';
import { recordedJson } from './payload.js';
import { injectContext } from './propagation.js';
import { sessionSpans } from './sessionSpans.js';
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
  const instruments = new Instruments(options);
  const requests = async (
    request: ClientRequest,
    send: (params: JsonObject | undefined) => Promise<JsonObject>,
  ): Promise<JsonObject> => {
    const started = performance.now();
    const { method, params, session } = request;
    const tool = toolNameOf(method, params);
    const metricAttributes = metricAttributesOf(method, tool, session);
    const spanAttributes: Attributes = {
      ...metricAttributes,
      [ATTR.requestId]: String(request.id),
    };
    if (session.sessionId !== undefined) spanAttributes[ATTR.sessionId] = session.sessionId;
    if (options.recordArguments && tool !== undefined)
      addArguments(spanAttributes, params?.['arguments'], instruments.maxRecordedLength);
    if (options.spanAttributes)
      Object.assign(spanAttributes, extraAttributes(options.spanAttributes, request));

    // A call the person decided about has had its span since callTool started it.
    const call = request.call instanceof ToolCallSpan ? request.call.take() : undefined;
    const parent = call?.parent ?? context.active();
    const span =
      call?.span.setAttributes(spanAttributes) ??
      instruments.tracer.startSpan(
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
      instruments
        .duration(METRICS.client)
        .record((performance.now() - started) / 1000, metricAttributes);
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
    if (method === INITIALIZE && typeof result['protocolVersion'] === 'string') {
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
  return Object.assign(requests, {
    toolCall: (call: ToolCallView) => {
      const attributes = metricAttributesOf(TOOLS_CALL, call.name, call.session);
      if (call.session.sessionId !== undefined) attributes[ATTR.sessionId] = call.session.sessionId;
      if (options.recordArguments)
        addArguments(attributes, call.arguments, instruments.maxRecordedLength);
      const parent = context.active();
      const span = instruments.tracer.startSpan(
        spanName(TOOLS_CALL, call.name),
        { kind: SpanKind.CLIENT, attributes },
        parent,
      );
      return new ToolCallSpan(span, parent, instruments.maxRecordedLength);
    },
    session: (session: ClientSessionView) =>
      sessionSpans(instruments, {
        side: 'client',
        get sessionId() {
          return session.sessionId;
        },
        get protocolVersion() {
          return session.protocolVersion;
        },
        networkTransport: session.networkTransport,
        network: session.network,
      }),
  });
}

/** The histogram attributes of a request (its span's start with them). */
function metricAttributesOf(
  method: string,
  tool: string | undefined,
  session: ClientSessionView,
): Attributes {
  const attributes: Attributes = { [ATTR.methodName]: method };
  if (method === TOOLS_CALL) attributes[ATTR.operationName] = EXECUTE_TOOL;
  if (tool !== undefined) attributes[ATTR.toolName] = tool;
  if (session.protocolVersion !== undefined)
    attributes[ATTR.protocolVersion] = session.protocolVersion;
  addNetwork(attributes, session, undefined);
  return attributes;
}

/** Adds a call's arguments as `gen_ai.tool.call.arguments` (opt-in), cut to `max`. */
function addArguments(attributes: Attributes, args: unknown, max: number): void {
  if (args === undefined) return;
  const json = recordedJson(args, max);
  if (json !== undefined) attributes[ATTR.toolCallArguments] = json;
}

/**
 * @module Server telemetry as a middleware: a SERVER span per request named
 * `{mcp.method.name} {gen_ai.tool.name}`, parented by the trace context in `params._meta`, with
 * the handler running inside it, and the `mcp.server.operation.duration` histogram. The
 * middleware carries the server's instrumentation for the rest of each session (sessionSpans.ts):
 * `initialize`, notifications, the server's requests to the client, the session's duration.
 */
import { context, SpanKind, trace, type Attributes } from '@opentelemetry/api';
import { TOOLS_CALL } from '../jsonrpc/methods.js';
import type { JsonObject } from '../jsonrpc/types.js';
import type { ServerInstrumentation } from '../server/middleware/instrumentation.js';
import type { Middleware, MiddlewareRequest } from '../server/middleware/middleware.js';
import { extraAttributes, Instruments, type TelemetryOptions } from './instruments.js';
import { recordOutcome, resultOutcome, serverErrorOutcome, type Outcome } from './outcome.js';
import { recordedJson } from './payload.js';
import { addNetwork, addPeer } from './network.js';
import { extractParent } from './propagation.js';
import { sessionSpans } from './sessionSpans.js';
import { ATTR, EXECUTE_TOOL, METRICS, spanName, toolNameOf } from './semconv.js';

/** Options of {@link serverTelemetry}. */
export interface ServerTelemetryOptions extends TelemetryOptions {
  /** Further attributes for a request's span (not the histogram: keep its cardinality low). */
  spanAttributes?: (request: MiddlewareRequest) => Attributes | undefined;
}

/** The longest requested tool name recorded for a tool the server does not have. */
const MAX_UNKNOWN_TOOL_NAME = 256;

/**
 * A middleware that traces and times every request it wraps, by the OpenTelemetry semantic
 * conventions for MCP, and the rest of every session connected after `server.use()` (its
 * `instrumentation`). Put it outermost so refused requests are recorded too:
 * `server.use(serverTelemetry(), { before: 'access' })`.
 */
export function serverTelemetry(options: ServerTelemetryOptions = {}): Middleware {
  const instruments = new Instruments(options);
  const instrumentation: ServerInstrumentation = {
    session: (session) =>
      sessionSpans(instruments, {
        side: 'server',
        sessionId: session.id,
        get protocolVersion() {
          return session.protocolVersion;
        },
        networkTransport: session.networkTransport,
        network: session.network,
        // A stateless HTTP "session" lives for one request: it has no duration to record.
        timed: !session.transient,
      }),
  };
  const middleware = async (request: MiddlewareRequest, next: () => Promise<JsonObject>) => {
    const started = performance.now();
    const { method, params } = request;
    // Only a registered tool names the span and the metric: a name the caller made up would
    // give both unbounded cardinality.
    const tool = method === TOOLS_CALL ? request.tool?.name : undefined;
    const metricAttributes: Attributes = {
      [ATTR.methodName]: method,
      [ATTR.protocolVersion]: request.session.protocolVersion,
    };
    if (method === TOOLS_CALL) metricAttributes[ATTR.operationName] = EXECUTE_TOOL;
    if (tool !== undefined) metricAttributes[ATTR.toolName] = tool;
    addNetwork(metricAttributes, request, request.httpVersion);

    const spanAttributes: Attributes = {
      ...metricAttributes,
      [ATTR.sessionId]: request.session.id,
      [ATTR.requestId]: String(request.requestId),
    };
    addPeer(spanAttributes, request.peer);
    const requested = toolNameOf(method, params);
    if (tool === undefined && requested !== undefined)
      spanAttributes[ATTR.toolName] = requested.slice(0, MAX_UNKNOWN_TOOL_NAME);
    if (options.recordArguments && method === TOOLS_CALL && params?.['arguments'] !== undefined) {
      const json = recordedJson(params['arguments'], instruments.maxRecordedLength);
      if (json !== undefined) spanAttributes[ATTR.toolCallArguments] = json;
    }
    if (options.spanAttributes)
      Object.assign(spanAttributes, extraAttributes(options.spanAttributes, request));

    const parent = extractParent(context.active(), params, instruments.propagator);
    const span = instruments.tracer.startSpan(
      spanName(method, tool),
      {
        kind: SpanKind.SERVER,
        attributes: spanAttributes,
        ...(parent.links ? { links: parent.links } : {}),
      },
      parent.context,
    );
    const finish = (outcome: Outcome): void => {
      recordOutcome(outcome, span, metricAttributes);
      span.end();
      instruments
        .duration(METRICS.server)
        .record((performance.now() - started) / 1000, metricAttributes);
    };
    let result: JsonObject;
    try {
      result = await context.with(trace.setSpan(parent.context, span), next);
    } catch (error) {
      finish(serverErrorOutcome(method, error));
      throw error;
    }
    const outcome = resultOutcome(method, result);
    if (options.recordResults && method === TOOLS_CALL && outcome.errorType === undefined) {
      const json = recordedJson(result, instruments.maxRecordedLength);
      if (json !== undefined) span.setAttribute(ATTR.toolCallResult, json);
    }
    finish(outcome);
    return result;
  };
  return Object.assign(middleware, { instrumentation });
}

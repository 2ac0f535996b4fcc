/**
 * @module One session's telemetry beyond the requests its own hook traces, the same on both sides:
 * a SERVER span for each request it serves there (a server's `initialize`, a client's sampling,
 * elicitation and roots) and each notification it receives, parented by the trace context in
 * `params._meta`, the handling running inside it; a CLIENT span for each notification it sends
 * (and, on a server, each request it sends the client), its trace context added to `_meta`; the
 * operation histogram of each side; and the session's duration when it ends.
 */
import { context, SpanKind, trace, type Attributes, type Span } from '@opentelemetry/api';
import type { IncomingRequestView, SessionObserver } from '../jsonrpc/interceptors.js';
import type { MessageInfo } from '../jsonrpc/transport.js';
import { INITIALIZE } from '../jsonrpc/methods.js';
import type { JsonObject, JsonRpcNotification, RequestId } from '../jsonrpc/types.js';
import type { Instruments } from './instruments.js';
import { addNetwork, addPeer, type NetworkFacts } from './network.js';
import {
  clientErrorOutcome,
  recordOutcome,
  resultOutcome,
  serverErrorOutcome,
  SUCCESS,
  type Outcome,
} from './outcome.js';
import { extractParent, injectContext } from './propagation.js';
import { ATTR, METRICS, type MetricName } from './semconv.js';

/** What the telemetry of one session reads of it; read when needed, it stays current. */
export interface SessionFacts extends NetworkFacts {
  /** Which side this is: its histograms and which peer attributes it records. */
  readonly side: 'server' | 'client';
  readonly sessionId: string | undefined;
  readonly protocolVersion: string | undefined;
  /** False for a session that is none (stateless HTTP): its duration is not recorded. */
  readonly timed?: boolean;
}

/** The histogram attributes of a message of `method` in this session. */
function metricAttributesOf(
  facts: SessionFacts,
  method: string,
  info: MessageInfo | undefined,
): Attributes {
  const attributes: Attributes = { [ATTR.methodName]: method };
  if (facts.protocolVersion !== undefined) attributes[ATTR.protocolVersion] = facts.protocolVersion;
  addNetwork(attributes, facts, info?.httpVersion);
  return attributes;
}

/** The span attributes: the histogram's, the session and request ids and the peer. */
function spanAttributesOf(
  facts: SessionFacts,
  metricAttributes: Attributes,
  message: { id?: RequestId | undefined; info?: MessageInfo | undefined },
): Attributes {
  const attributes: Attributes = { ...metricAttributes };
  if (facts.sessionId !== undefined) attributes[ATTR.sessionId] = facts.sessionId;
  if (message.id !== undefined) attributes[ATTR.requestId] = String(message.id);
  if (facts.side === 'server') addPeer(attributes, message.info?.peer);
  return attributes;
}

/** Observes one session (see the module documentation). */
export function sessionSpans(instruments: Instruments, facts: SessionFacts): SessionObserver {
  const started = performance.now();

  /**
   * What ends a span started now and records its duration: in `mcp.server.operation.duration`
   * for a message received, `mcp.client.operation.duration` for one sent, whichever side this is.
   */
  const finisher = (span: Span, metricAttributes: Attributes, histogram: MetricName) => {
    const since = performance.now();
    return (outcome: Outcome): void => {
      recordOutcome(outcome, span, metricAttributes);
      span.end();
      instruments.duration(histogram).record((performance.now() - since) / 1000, metricAttributes);
    };
  };

  /** A SERVER span for a message received, parented by its `_meta`. */
  const receivedSpan = (
    method: string,
    params: JsonObject | undefined,
    message: { id?: RequestId; info: MessageInfo | undefined },
  ) => {
    const metricAttributes = metricAttributesOf(facts, method, message.info);
    const parent = extractParent(context.active(), params, instruments.propagator);
    const span = instruments.tracer.startSpan(
      method,
      {
        kind: SpanKind.SERVER,
        attributes: spanAttributesOf(facts, metricAttributes, message),
        ...(parent.links ? { links: parent.links } : {}),
      },
      parent.context,
    );
    const finish = finisher(span, metricAttributes, METRICS.server);
    return { span, metricAttributes, finish, context: trace.setSpan(parent.context, span) };
  };

  /** A CLIENT span for a message sent, and the params carrying its trace context. */
  const sentSpan = (method: string, params: JsonObject | undefined, id?: RequestId) => {
    const metricAttributes = metricAttributesOf(facts, method, undefined);
    const parent = context.active();
    const span = instruments.tracer.startSpan(
      method,
      { kind: SpanKind.CLIENT, attributes: spanAttributesOf(facts, metricAttributes, { id }) },
      parent,
    );
    const carried = injectContext(trace.setSpan(parent, span), params, instruments.propagator);
    return { finish: finisher(span, metricAttributes, METRICS.client), carried };
  };

  const observer: {
    -readonly [K in keyof SessionObserver]: SessionObserver[K];
  } = {
    incomingRequest: async (request: IncomingRequestView, handle) => {
      const {
        span,
        metricAttributes,
        finish,
        context: inside,
      } = receivedSpan(request.method, request.params, request);
      let result: JsonObject;
      try {
        result = await context.with(inside, handle);
      } catch (error) {
        finish(serverErrorOutcome(request.method, error));
        throw error;
      }
      // The revision is negotiated by this very request: its answer names it.
      const version = result['protocolVersion'];
      if (request.method === INITIALIZE && typeof version === 'string') {
        metricAttributes[ATTR.protocolVersion] = version;
        span.setAttribute(ATTR.protocolVersion, version);
      }
      finish(resultOutcome(request.method, result));
      return result;
    },
    ended: ({ error }) => {
      if (facts.timed === false) return;
      const attributes: Attributes = {};
      if (facts.protocolVersion !== undefined)
        attributes[ATTR.protocolVersion] = facts.protocolVersion;
      addNetwork(attributes, facts, undefined);
      if (error !== undefined) {
        const type = clientErrorOutcome(error).errorType;
        if (type !== undefined) attributes[ATTR.errorType] = type;
      }
      instruments
        .duration(facts.side === 'server' ? METRICS.serverSession : METRICS.clientSession)
        .record((performance.now() - started) / 1000, attributes);
    },
  };
  if (facts.side === 'server')
    observer.outgoingRequest = (request, send) => {
      const { finish, carried } = sentSpan(request.method, request.params, request.id);
      return send(carried).then(
        (result) => {
          finish(resultOutcome(request.method, result));
          return result;
        },
        (error: unknown) => {
          finish(clientErrorOutcome(error));
          throw error;
        },
      );
    };
  if (!instruments.notifications) return observer;
  observer.incomingNotification = (
    notification: JsonRpcNotification,
    info: MessageInfo | undefined,
    handle: () => void,
  ) => {
    const { finish, context: inside } = receivedSpan(notification.method, notification.params, {
      info,
    });
    try {
      context.with(inside, handle);
    } catch (error) {
      finish(serverErrorOutcome(notification.method, error));
      throw error;
    }
    finish(SUCCESS);
  };
  observer.outgoingNotification = (notification, send) => {
    const { finish, carried } = sentSpan(notification.method, notification.params);
    return send(carried).then(
      () => finish(SUCCESS),
      (error: unknown) => {
        finish(clientErrorOutcome(error));
        throw error;
      },
    );
  };
  return observer;
}

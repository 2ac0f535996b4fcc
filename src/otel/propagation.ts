/**
 * @module Trace context in `params._meta`, as the MCP semantic conventions say (SEP-414: the
 * W3C keys `traceparent`, `tracestate` and `baggage`, unprefixed): the server extracts it as the
 * parent of its span, the client injects it, never overwriting a `_meta` key the caller set.
 */
import {
  trace,
  type Context,
  type Link,
  type TextMapGetter,
  type TextMapPropagator,
  type TextMapSetter,
} from '@opentelemetry/api';
import { isPlainObject } from '../jsonrpc/guards.js';
import type { JsonObject } from '../jsonrpc/types.js';

/** Reads string values of `_meta`; anything else there (numbers, objects, arrays) is absent. */
const metaGetter: TextMapGetter<unknown> = {
  keys(carrier) {
    return isPlainObject(carrier) ? Object.keys(carrier) : [];
  },
  get(carrier, key) {
    if (!isPlainObject(carrier) || !Object.hasOwn(carrier, key)) return undefined;
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

const metaSetter: TextMapSetter<Record<string, string>> = {
  set(carrier, key, value) {
    carrier[key] = value;
  },
};

/** The parent of a server span, and a link to the ambient context when `_meta` replaced it. */
export interface ServerParent {
  readonly context: Context;
  readonly links: Link[] | undefined;
}

/**
 * The context a request's span starts in: the one `params._meta` carries, else the ambient one
 * (an HTTP server span, say). With both, the ambient span is linked, as the convention asks.
 * Malformed or absent values leave the ambient context as it is (the propagator ignores them).
 */
export function extractParent(
  active: Context,
  params: JsonObject | undefined,
  propagator: TextMapPropagator,
): ServerParent {
  const meta = params?.['_meta'];
  if (!isPlainObject(meta)) return { context: active, links: undefined };
  const extracted = propagator.extract(active, meta, metaGetter);
  const remote = trace.getSpanContext(extracted);
  const ambient = trace.getSpanContext(active);
  const replaced =
    remote !== undefined &&
    ambient !== undefined &&
    trace.isSpanContextValid(ambient) &&
    (remote.traceId !== ambient.traceId || remote.spanId !== ambient.spanId);
  return { context: extracted, links: replaced ? [{ context: ambient }] : undefined };
}

/**
 * The params with the context's trace context added to `_meta`: keys the caller put in `_meta`
 * stay as they are. Params are returned unchanged when there is nothing to add, or when `_meta`
 * is not an object (the server answers that itself).
 */
export function injectContext(
  ctx: Context,
  params: JsonObject | undefined,
  propagator: TextMapPropagator,
): JsonObject | undefined {
  const meta = params?.['_meta'];
  if (meta !== undefined && !isPlainObject(meta)) return params;
  const carrier: Record<string, string> = {};
  propagator.inject(ctx, carrier, metaSetter);
  const adds = Object.keys(carrier).some((key) => meta === undefined || !Object.hasOwn(meta, key));
  if (!adds) return params;
  return { ...params, _meta: { ...carrier, ...meta } };
}

/**
 * @module The options both sides share and the instruments they resolve to: a tracer, the
 * duration histograms and a propagator, from the providers given or the OpenTelemetry API's
 * global ones.
 */
import {
  diag,
  metrics,
  propagation,
  trace,
  type Attributes,
  type Histogram,
  type MeterProvider,
  type TextMapPropagator,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { DURATION_BUCKETS, METRIC_DESCRIPTIONS, type MetricName } from './semconv.js';

/** The instrumentation scope of toolwire's spans and metrics. */
export const SCOPE = 'toolwire';

/** Options of `serverTelemetry()` and `clientTelemetry()`. */
export interface TelemetryOptions {
  /** Where spans go. Default: the global tracer provider of the OpenTelemetry API. */
  tracerProvider?: TracerProvider;
  /**
   * Where the duration histogram goes. Default: the global meter provider of the OpenTelemetry
   * API, as registered when the first request is handled.
   */
  meterProvider?: MeterProvider;
  /**
   * Reads and writes trace context in `params._meta`. Default: the propagator registered with
   * the OpenTelemetry API (the Node SDK registers W3C Trace Context and Baggage), so
   * `traceparent`, `tracestate` and `baggage` travel as the MCP convention says.
   */
  propagator?: TextMapPropagator;
  /**
   * Record the arguments of `tools/call` as `gen_ai.tool.call.arguments` (JSON). They may hold
   * personal or secret data: off by default.
   */
  recordArguments?: boolean;
  /**
   * Record the result of a successful `tools/call` as `gen_ai.tool.call.result` (JSON). Off by
   * default, for the same reason.
   */
  recordResults?: boolean;
  /**
   * The longest recorded arguments or result, in UTF-16 code units; longer JSON is cut and ends
   * with `…`. Default 4096.
   */
  maxRecordedLength?: number;
  /**
   * Trace notifications, both ways (a span each, and a point in the operation histograms).
   * Default true; a server sending many progress notifications may turn it off.
   */
  notifications?: boolean;
}

/** The tracer, histograms and propagator of one `serverTelemetry()` or `clientTelemetry()`. */
export class Instruments {
  private tracerValue: Tracer | undefined;
  private readonly histograms = new Map<MetricName, Histogram>();
  readonly propagator: TextMapPropagator;
  readonly maxRecordedLength: number;
  /** Whether notifications are traced. */
  readonly notifications: boolean;

  constructor(private readonly options: TelemetryOptions) {
    this.notifications = options.notifications !== false;
    this.propagator = options.propagator ?? propagation;
    const max = options.maxRecordedLength ?? 4096;
    if (!Number.isInteger(max) || max < 1)
      throw new RangeError(`maxRecordedLength must be a positive integer, got ${max}`);
    this.maxRecordedLength = max;
  }

  /** Resolved at first use: a meter provider registered after start-up is still found. */
  get tracer(): Tracer {
    this.tracerValue ??= (this.options.tracerProvider ?? trace.getTracerProvider()).getTracer(
      SCOPE,
    );
    return this.tracerValue;
  }

  /** A duration histogram (seconds, the convention's explicit bucket boundaries). */
  duration(name: MetricName): Histogram {
    let histogram = this.histograms.get(name);
    if (histogram === undefined) {
      histogram = (this.options.meterProvider ?? metrics.getMeterProvider())
        .getMeter(SCOPE)
        .createHistogram(name, {
          unit: 's',
          description: METRIC_DESCRIPTIONS[name],
          advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
        });
      this.histograms.set(name, histogram);
    }
    return histogram;
  }
}

/**
 * The attributes a user's `spanAttributes` gives for a request. Telemetry never fails a request:
 * a hook that throws is reported to OpenTelemetry's diagnostic logger and adds nothing.
 */
export function extraAttributes<R>(
  hook: (request: R) => Attributes | undefined,
  request: R,
): Attributes | undefined {
  try {
    return hook(request);
  } catch (error) {
    diag.error('toolwire/otel: spanAttributes threw', error);
    return undefined;
  }
}

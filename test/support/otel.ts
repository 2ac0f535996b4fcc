// OpenTelemetry in memory for tests: a tracer provider exporting to an InMemorySpanExporter, a
// meter provider read on demand, the W3C Trace Context propagator, and the AsyncLocalStorage
// context manager (so spans started after an await still find their parent).
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  MeterProvider,
  MetricReader,
  type DataPoint,
  type Histogram,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

/** A metric reader that reads only when asked. */
class OnDemandReader extends MetricReader {
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

let contextManagerSet = false;

/** Registers the AsyncLocalStorage context manager once per test process. */
export function useAsyncContext(): void {
  if (contextManagerSet) return;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  contextManagerSet = true;
}

/** One histogram as read: its descriptor and points. */
export interface HistogramRead {
  metric: MetricData;
  points: Array<DataPoint<Histogram>>;
}

/** Fresh in-memory providers for one test. */
export function otelHarness() {
  useAsyncContext();
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const propagator = new W3CTraceContextPropagator();
  return {
    exporter,
    tracerProvider,
    meterProvider,
    propagator,
    /** The options every telemetry under test gets. */
    options: { tracerProvider, meterProvider, propagator },
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    span(name: string): ReadableSpan {
      const found = exporter.getFinishedSpans().filter((s) => s.name === name);
      if (found.length !== 1) {
        const names = exporter.getFinishedSpans().map((s) => s.name);
        throw new Error(
          `expected one span "${name}", got ${found.length} among ${names.join(', ')}`,
        );
      }
      return found[0]!;
    },
    async histogram(name: string): Promise<HistogramRead | undefined> {
      const { resourceMetrics } = await reader.collect();
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) {
          if (metric.descriptor.name === name)
            return { metric, points: metric.dataPoints as Array<DataPoint<Histogram>> };
        }
      }
      return undefined;
    },
  };
}

/** A valid W3C traceparent and its parts. */
export const REMOTE = {
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  spanId: '00f067aa0ba902b7',
  traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
  tracestate: 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE',
};

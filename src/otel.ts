/**
 * @module `toolwire/otel`: OpenTelemetry traces and metrics for toolwire servers and clients, by
 * the OpenTelemetry semantic conventions for MCP. Needs the optional peer dependency
 * `@opentelemetry/api`; nothing of it is loaded unless this entry point is imported.
 */
export { serverTelemetry } from './otel/serverTelemetry.js';
export type { ServerTelemetryOptions } from './otel/serverTelemetry.js';
export { clientTelemetry } from './otel/clientTelemetry.js';
export type { ClientTelemetryOptions } from './otel/clientTelemetry.js';
export type { TelemetryOptions } from './otel/instruments.js';
export {
  ATTR as MCP_ATTRIBUTES,
  DURATION_BUCKETS,
  METRICS as MCP_METRICS,
} from './otel/semconv.js';
export { APPROVAL as MCP_APPROVAL } from './otel/approvalEvents.js';

/**
 * @module The OpenTelemetry semantic conventions for MCP that toolwire follows (GenAI semantic
 * conventions, `docs/gen-ai/mcp.md` and `model/mcp/*.yaml`, status Development): attribute keys,
 * metric names, units and buckets, span names, and which outcomes count as errors.
 */
import { TASKS_RESULT, TOOLS_CALL } from '../jsonrpc/methods.js';
import type { JsonObject } from '../jsonrpc/types.js';

/** The attribute keys toolwire records (all strings unless noted). */
export const ATTR = {
  methodName: 'mcp.method.name',
  protocolVersion: 'mcp.protocol.version',
  sessionId: 'mcp.session.id',
  requestId: 'jsonrpc.request.id',
  operationName: 'gen_ai.operation.name',
  toolName: 'gen_ai.tool.name',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  responseStatusCode: 'rpc.response.status_code',
  errorType: 'error.type',
  networkTransport: 'network.transport',
  networkProtocolName: 'network.protocol.name',
  networkProtocolVersion: 'network.protocol.version',
  /** On the client's spans and histograms: the server it reaches (an int port). */
  serverAddress: 'server.address',
  serverPort: 'server.port',
  /** On the server's spans only (never a histogram: one series per caller): the peer's socket. */
  clientAddress: 'client.address',
  clientPort: 'client.port',
} as const;

/** `gen_ai.operation.name` of a tool call (set on `tools/call` only). */
export const EXECUTE_TOOL = 'execute_tool';

/** `error.type` of a `CallToolResult` with `isError: true`. */
export const TOOL_ERROR = 'tool_error';

/** `error.type` when nothing more specific is known. */
export const OTHER_ERROR = '_OTHER';

/** The duration histograms (unit: seconds). */
export const METRICS = {
  server: 'mcp.server.operation.duration',
  client: 'mcp.client.operation.duration',
  serverSession: 'mcp.server.session.duration',
  clientSession: 'mcp.client.session.duration',
} as const;

/** The name of a histogram of {@link METRICS}. */
export type MetricName = (typeof METRICS)[keyof typeof METRICS];

/** Each histogram's description, as the convention words it. */
export const METRIC_DESCRIPTIONS: Readonly<Record<MetricName, string>> = {
  [METRICS.server]:
    'MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent.',
  [METRICS.client]:
    'The duration of the MCP request or notification as observed on the sender from the time it was sent until the response or ack is received.',
  [METRICS.serverSession]: 'The duration of the MCP session as observed on the MCP server.',
  [METRICS.clientSession]: 'The duration of the MCP session as observed on the MCP client.',
};

/** The explicit bucket boundaries both duration histograms SHOULD use, in seconds. */
export const DURATION_BUCKETS: readonly number[] = [
  0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300,
];

/**
 * JSON-RPC codes a server answers when the caller sent a request it could not serve: recorded as
 * `rpc.response.status_code` on the server, but not errors of the server (the convention's
 * server status attributes). On the client every JSON-RPC error code is an error.
 */
export const CALLER_FAULT_CODES: ReadonlySet<number> = new Set([
  -32700, -32600, -32601, -32602, -32002,
]);

/** The span name: `{mcp.method.name} {target}`, or the method alone without a target. */
export function spanName(method: string, target: string | undefined): string {
  return target === undefined ? method : `${method} ${target}`;
}

/** The tool a request names: `params.name` of `tools/call`, when it is a string. */
export function toolNameOf(method: string, params: JsonObject | undefined): string | undefined {
  if (method !== TOOLS_CALL) return undefined;
  const name = params?.['name'];
  return typeof name === 'string' ? name : undefined;
}

/** Whether a result is a tool's error result (`isError: true`, from `tools/call` or a task). */
export function isToolError(method: string, result: JsonObject): boolean {
  return (method === TOOLS_CALL || method === TASKS_RESULT) && result['isError'] === true;
}

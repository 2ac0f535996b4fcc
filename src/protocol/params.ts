/**
 * @module Hand-written guards for the params of incoming requests and the results of outgoing
 * ones. A failed guard on incoming params is a -32602; on a peer's result it is an
 * `invalid-response` LocalError.
 */
import { ErrorCode, LocalError, RpcError } from '../jsonrpc/errors.js';
import { isPlainObject } from '../jsonrpc/guards.js';
import type { JsonObject } from '../jsonrpc/types.js';
import type { CallToolParams, PaginatedParams, TaskIdParams } from './methods/paramTypes.js';
import {
  LOGGING_LEVELS,
  type CallToolResult,
  type InitializeParams,
  type InitializeResult,
  type ListToolsResult,
  type LoggingLevel,
  type Tool,
} from './types.js';
import { contentBlockProblem } from './contentGuards.js';
import { isSupportedVersion, type RevisionFeatures } from './versions.js';

function invalidParams(message: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, message);
}

/** Checks `initialize` params (lenient on absent optional parts, strict on wrong types). */
export function parseInitializeParams(params: JsonObject | undefined): InitializeParams {
  const p = params ?? {};
  if (typeof p['protocolVersion'] !== 'string') {
    throw invalidParams('initialize: "protocolVersion" must be a string');
  }
  const capabilities = p['capabilities'] ?? {};
  if (!isPlainObject(capabilities))
    throw invalidParams('initialize: "capabilities" must be an object');
  const info = p['clientInfo'] ?? { name: 'unknown', version: 'unknown' };
  if (!isPlainObject(info) || typeof info['name'] !== 'string') {
    throw invalidParams('initialize: "clientInfo" must be an object with a string "name"');
  }
  return {
    protocolVersion: p['protocolVersion'],
    capabilities,
    clientInfo: {
      ...info,
      name: info['name'],
      version: typeof info['version'] === 'string' ? info['version'] : 'unknown',
    },
  };
}

/** Checks `tools/call` params: a string name, an object (or absent) `arguments`. */
export function parseCallToolParams(params: JsonObject | undefined): CallToolParams {
  const p = params ?? {};
  const name = p['name'];
  if (typeof name !== 'string') throw invalidParams('tools/call: "name" must be a string');
  const args = p['arguments'];
  if (args !== undefined && !isPlainObject(args)) {
    throw invalidParams('tools/call: "arguments" must be an object');
  }
  const out: CallToolParams = { name, arguments: args ?? {} };
  const task = p['task'];
  if (task !== undefined) {
    if (!isPlainObject(task)) throw invalidParams('tools/call: "task" must be an object');
    const ttl = task['ttl'];
    if (ttl !== undefined && ttl !== null && !(Number.isInteger(ttl) && (ttl as number) >= 0)) {
      throw invalidParams('tools/call: "task.ttl" must be a non-negative integer');
    }
    out.task = typeof ttl === 'number' ? { ttl } : {};
  }
  if (isPlainObject(p['_meta'])) out._meta = p['_meta'];
  return out;
}

/** Reads the optional `cursor` of a paginated request. */
export function parseCursor(params: JsonObject | undefined): string | undefined {
  const cursor = params?.['cursor'];
  if (cursor === undefined || cursor === null) return undefined;
  if (typeof cursor !== 'string') throw invalidParams('"cursor" must be a string');
  return cursor;
}

/** Checks the params of a paginated list request: only the optional `cursor` is read. */
export function parsePaginatedParams(params: JsonObject | undefined): PaginatedParams {
  const cursor = parseCursor(params);
  return cursor === undefined ? {} : { cursor };
}

/** Checks the `taskId` of a task method that names one task. */
export function parseTaskIdParams(params: JsonObject | undefined): TaskIdParams {
  const taskId = params?.['taskId'];
  if (typeof taskId !== 'string' || taskId === '')
    throw invalidParams('"taskId" must be a non-empty string');
  return { taskId };
}

/** Checks the params of `logging/setLevel`. */
export function parseSetLevelParams(params: JsonObject | undefined): { level: LoggingLevel } {
  return { level: parseLoggingLevel(params) };
}

/** Reads the `level` of `logging/setLevel`. */
export function parseLoggingLevel(params: JsonObject | undefined): LoggingLevel {
  const level = params?.['level'];
  if (!(LOGGING_LEVELS as readonly unknown[]).includes(level)) {
    throw invalidParams(
      `Invalid log level ${JSON.stringify(level)}; expected one of ${LOGGING_LEVELS.join(', ')}`,
    );
  }
  return level as LoggingLevel;
}

function invalidResponse(message: string): LocalError {
  return new LocalError('invalid-response', message);
}

/** Checks a server's `initialize` result. The version check is the caller's. */
export function parseInitializeResult(result: JsonObject): InitializeResult {
  const version = result['protocolVersion'];
  if (typeof version !== 'string')
    throw invalidResponse('initialize result has no protocolVersion');
  if (!isSupportedVersion(version)) {
    throw new LocalError(
      'unsupported-version',
      `The server chose protocol version ${version}, which this client does not support`,
    );
  }
  const caps = result['capabilities'];
  const info = result['serverInfo'];
  if (!isPlainObject(caps)) throw invalidResponse('initialize result has no capabilities object');
  if (!isPlainObject(info) || typeof info['name'] !== 'string') {
    throw invalidResponse('initialize result has no serverInfo with a name');
  }
  const out: InitializeResult = {
    protocolVersion: version,
    capabilities: caps,
    serverInfo: {
      ...info,
      name: info['name'],
      version: typeof info['version'] === 'string' ? info['version'] : '',
    },
  };
  if (typeof result['instructions'] === 'string') out.instructions = result['instructions'];
  return out;
}

/** Why one listed tool is unusable, or undefined. */
export function toolProblem(tool: unknown): string | undefined {
  if (!isPlainObject(tool)) return 'a tool must be an object';
  if (typeof tool['name'] !== 'string') return 'a tool must have a string name';
  const schema = tool['inputSchema'];
  if (!isPlainObject(schema)) return `tool ${tool['name']}: inputSchema must be an object`;
  const out = tool['outputSchema'];
  if (out !== undefined && !isPlainObject(out))
    return `tool ${tool['name']}: outputSchema must be an object`;
  return undefined;
}

/**
 * Checks one `tools/list` page. Malformed tools are left out and reported through `onSkip`, so one
 * bad definition does not hide the others.
 */
export function parseListToolsResult(
  result: JsonObject,
  onSkip: (problem: string) => void,
): ListToolsResult {
  const tools = result['tools'];
  if (!Array.isArray(tools)) throw invalidResponse('tools/list result has no "tools" array');
  const cursor = result['nextCursor'];
  if (cursor !== undefined && cursor !== null && typeof cursor !== 'string') {
    throw invalidResponse('tools/list "nextCursor" must be a string');
  }
  const good: Tool[] = [];
  for (const tool of tools) {
    const problem = toolProblem(tool);
    if (problem === undefined) good.push(tool as Tool);
    else onSkip(problem);
  }
  const out: ListToolsResult = { tools: good };
  if (typeof cursor === 'string') out.nextCursor = cursor;
  return out;
}

/**
 * Checks a `tools/call` result against the CallToolResult of the negotiated revision: `content`
 * present and made of blocks that revision defines, `structuredContent` an object, `isError` a
 * boolean. A result that breaks it is refused as `invalid-output` rather than repaired, so a model
 * never sees what the server did not validly send.
 */
export function parseCallToolResult(
  result: JsonObject,
  features: RevisionFeatures,
): CallToolResult {
  const content = result['content'];
  if (!Array.isArray(content))
    throw invalidOutput('it has no "content" array (the result must list its content blocks)');
  for (let i = 0; i < content.length; i++) {
    const problem = contentBlockProblem(content[i], features);
    if (problem) throw invalidOutput(`content[${i}] ${problem}`);
  }
  const structured = result['structuredContent'];
  // 2026-07-28 lets structured content be any JSON value; before, it is an object.
  if (structured !== undefined && !features.stateless && !isPlainObject(structured))
    throw invalidOutput('"structuredContent" must be an object');
  const isError = result['isError'];
  if (isError !== undefined && typeof isError !== 'boolean')
    throw invalidOutput('"isError" must be a boolean');
  const meta = result['_meta'];
  if (meta !== undefined && !isPlainObject(meta)) throw invalidOutput('"_meta" must be an object');
  return result as unknown as CallToolResult;
}

function invalidOutput(problem: string): LocalError {
  return new LocalError(
    'invalid-output',
    `The tool result is not a valid CallToolResult: ${problem}`,
  );
}

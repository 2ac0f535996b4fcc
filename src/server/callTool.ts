/**
 * @module The `tools/call` pipeline: find the tool (visibility applies), rate-limit, validate the
 * arguments (error form per revision), run the handler under a deadline, check what it returned,
 * enforce the output schema, and convert the result for the session's revision.
 */
import { ErrorCode, LocalError, RpcError } from '../jsonrpc/errors.js';
import type { Identity } from '../jsonrpc/transport.js';
import type { JsonObject, RequestId } from '../jsonrpc/types.js';
import { describeIssues } from '../protocol/jsonSchema.js';
import { parseCallToolParams } from '../protocol/params.js';
import { callToolResultForRevision } from '../protocol/projection.js';
import type { CallToolResult } from '../protocol/types.js';
import { featuresOf } from '../protocol/versions.js';
import type { RateLimiter, RateLimitRule } from './rateLimiter.js';
import { checkToolResult } from './resultCheck.js';
import { toolError, ToolError } from './results.js';
import { createToolContext, type SessionPort, type ToolContext } from './toolContext.js';
import type { ToolEntry } from './toolDefinition.js';

/** What the pipeline needs from the server. */
export interface CallDependencies {
  /** The enabled, visible tool of that name for this caller, if any. */
  findTool(
    name: string,
    session: SessionPort,
    identity: Identity | undefined,
  ): ToolEntry | undefined;
  readonly rateLimiter: RateLimiter;
  readonly defaultRateLimit: RateLimitRule | undefined;
  readonly defaultTimeoutMs: number;
  readonly structuredText: boolean;
  readonly exposeErrorMessages: boolean;
  /** Server-side diagnostics (stderr by default): never sent to the client. */
  report(error: unknown, what: string): void;
}

/** The incoming request as the session hands it over. */
export interface CallRequest {
  readonly id: RequestId;
  readonly params: JsonObject | undefined;
  readonly signal: AbortSignal;
  readonly identity: Identity | undefined;
}

type Outcome =
  { kind: 'value'; value: unknown } | { kind: 'thrown'; error: unknown } | { kind: 'aborted' };

function runHandler(entry: ToolEntry, args: unknown, context: ToolContext): Promise<Outcome> {
  const signal = context.signal;
  return new Promise<Outcome>((resolve) => {
    if (signal.aborted) {
      resolve({ kind: 'aborted' });
      return;
    }
    const onAbort = (): void => resolve({ kind: 'aborted' });
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = (outcome: Outcome): void => {
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    try {
      Promise.resolve(entry.handler(args as never, context)).then(
        (value) => settle({ kind: 'value', value }),
        (error: unknown) => settle({ kind: 'thrown', error }),
      );
    } catch (error) {
      settle({ kind: 'thrown', error });
    }
  });
}

function thrownToResult(deps: CallDependencies, entry: ToolEntry, error: unknown): CallToolResult {
  if (error instanceof RpcError) throw error; // e.g. -32042 URL elicitation required: a protocol error
  if (error instanceof ToolError || error instanceof LocalError) return toolError(error.message);
  deps.report(error, `tool "${entry.name}" threw`);
  if (deps.exposeErrorMessages && error instanceof Error) return toolError(error.message);
  return toolError(`Tool "${entry.name}" failed with an internal error`);
}

async function checkOutput(
  deps: CallDependencies,
  entry: ToolEntry,
  value: unknown,
): Promise<CallToolResult> {
  const checked = checkToolResult(value);
  if (!checked.ok) {
    deps.report(new Error(checked.problem), `tool "${entry.name}" returned an invalid result`);
    return toolError(`Tool "${entry.name}" returned an invalid result: ${checked.problem}`);
  }
  const result = checked.result;
  if (entry.output && result.isError !== true) {
    if (result.structuredContent === undefined) {
      deps.report(
        new Error('no structuredContent'),
        `tool "${entry.name}" broke its output schema`,
      );
      return toolError(
        `Tool "${entry.name}" declares an output schema but returned no structured content`,
      );
    }
    const check = await entry.output.validate(result.structuredContent);
    if (!check.ok) {
      const detail = describeIssues(check.issues);
      deps.report(new Error(detail), `tool "${entry.name}" broke its output schema`);
      return toolError(
        `Tool "${entry.name}" returned structured content that does not match its output schema: ${detail}`,
      );
    }
    result.structuredContent = check.value as Record<string, unknown>;
  }
  if (
    result.structuredContent !== undefined &&
    result.content.length === 0 &&
    (entry.structuredText ?? deps.structuredText)
  ) {
    result.content = [{ type: 'text', text: JSON.stringify(result.structuredContent) }];
  }
  return result;
}

/** Runs one `tools/call` and returns the result as the session's revision allows it. */
export async function callTool(
  deps: CallDependencies,
  session: SessionPort,
  request: CallRequest,
): Promise<CallToolResult> {
  const params = parseCallToolParams(request.params);
  const entry = deps.findTool(params.name, session, request.identity);
  if (!entry)
    throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${params.name.slice(0, 200)}`);
  const features = featuresOf(session.info.protocolVersion);

  const rule = entry.rateLimit === false ? undefined : (entry.rateLimit ?? deps.defaultRateLimit);
  if (rule) {
    const principal = request.identity?.id ?? `session:${session.info.id}`;
    const decision = deps.rateLimiter.take(`${principal}\u0000${entry.name}`, rule);
    if (!decision.allowed) {
      const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      return toolError(`Rate limit exceeded for tool "${entry.name}"; retry in ${seconds} s`);
    }
  }

  const validated = await entry.input.validate(params.arguments ?? {});
  if (!validated.ok) {
    const message = `Invalid arguments for tool "${entry.name}": ${describeIssues(validated.issues)}`;
    if (features.inputErrorsAsResults) return toolError(message);
    throw new RpcError(ErrorCode.InvalidParams, message, { issues: validated.issues });
  }

  const timeoutMs = entry.timeoutMs ?? deps.defaultTimeoutMs;
  const deadline = new AbortController();
  const timer = setTimeout(
    () =>
      deadline.abort(
        new LocalError('timeout', `Tool "${entry.name}" did not finish within ${timeoutMs} ms`),
      ),
    timeoutMs,
  );
  const signal = AbortSignal.any([request.signal, deadline.signal]);
  const { context, finish } = createToolContext({
    session,
    requestId: request.id,
    toolName: entry.name,
    meta: params._meta,
    signal,
    identity: request.identity,
  });
  let result: CallToolResult;
  try {
    const outcome = await runHandler(entry, validated.value, context);
    if (outcome.kind === 'aborted') {
      // A cancelled call gets no response at all (the connection drops it); a deadline gets one.
      result = toolError(`Tool "${entry.name}" did not finish within ${timeoutMs} ms`);
    } else if (outcome.kind === 'thrown') {
      result = thrownToResult(deps, entry, outcome.error);
    } else {
      result = await checkOutput(deps, entry, outcome.value);
    }
  } finally {
    clearTimeout(timer);
    finish();
  }
  return callToolResultForRevision(result, features);
}

/**
 * @module The `tools/call` pipeline: find the tool (visibility applies), rate-limit, validate the
 * arguments (error form per revision), run the handler under a deadline, check what it returned,
 * enforce the output schema, and convert the result for the session's revision.
 */
import { ErrorCode, LocalError, RpcError } from '../jsonrpc/errors.js';
import type { Identity } from '../jsonrpc/transport.js';
import type { JsonObject, RequestId } from '../jsonrpc/types.js';
import { describeIssues, type SchemaIssue } from '../protocol/jsonSchema.js';
import { argumentsProblem } from '../protocol/jsonValues.js';
import { parseCallToolParams } from '../protocol/params.js';
import { callToolResultForRevision } from '../protocol/projection.js';
import type { CallToolResult } from '../protocol/types.js';
import { featuresOf, type RevisionFeatures } from '../protocol/versions.js';
import { rateLimitSubject, type RateLimiter, type RateLimitRule } from './rateLimiter.js';
import { checkToolResult } from './resultCheck.js';
import { oversizeOf } from './resultSize.js';
import { toolError, ToolError } from './results.js';
import { CallContext, type SessionPort } from './toolContext.js';
import type { Cancellation } from '../jsonrpc/cancellation.js';
import type { ToolEntry } from './toolDefinition.js';
import type { ToolSchemaCheck } from './toolSchema.js';
import { ownerOf, type TaskRuntime } from './taskRuntime.js';

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
  /** Largest result sent, as JSON bytes, unless the tool sets its own. */
  readonly maxResultBytes: number;
  /** Set when the server runs task-augmented calls. */
  readonly tasks: TaskRuntime | undefined;
  /** Server-side diagnostics (stderr by default): never sent to the client. */
  report(error: unknown, what: string): void;
}

/** The incoming request as the session hands it over. */
export interface CallRequest {
  readonly id: RequestId;
  readonly params: JsonObject | undefined;
  /** The request as the connection tracks it; its cancellation is created only when needed. */
  readonly incoming: { readonly cancellation: Cancellation };
  readonly identity: Identity | undefined;
  /** The caller's network address, when the transport knows it (rate limits of anonymous callers). */
  readonly clientAddress: string | undefined;
}

type Outcome =
  { kind: 'value'; value: unknown } | { kind: 'thrown'; error: unknown } | { kind: 'aborted' };

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * Waits for a handler's promise under the call's deadline, racing the call's cancellation. The
 * deadline cancels the request's own cancellation (one token per call); the connection still
 * answers, because only a peer's notifications/cancelled suppresses a response.
 */
function settleWithin(
  pending: PromiseLike<unknown>,
  call: { entry: ToolEntry; cancellation: Cancellation; timeoutMs: number },
): Promise<Outcome> {
  const { entry, cancellation, timeoutMs } = call;
  return new Promise<Outcome>((resolve) => {
    // The first of these three to happen wins: the handler settles, the call is cancelled (by the
    // peer or the session ending), or the deadline passes (which cancels the call).
    const timer = setTimeout(() => {
      cancellation.cancel(
        new LocalError('timeout', `Tool "${entry.name}" did not finish within ${timeoutMs} ms`),
      );
    }, timeoutMs);
    let settled = false;
    const finish = (outcome: Outcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    cancellation.onCancel(() => finish({ kind: 'aborted' }));
    pending.then(
      (value) => finish({ kind: 'value', value }),
      (error: unknown) => finish({ kind: 'thrown', error }),
    );
  });
}

function thrownToResult(deps: CallDependencies, entry: ToolEntry, error: unknown): CallToolResult {
  if (error instanceof RpcError) throw error; // e.g. -32042 URL elicitation required: a protocol error
  if (error instanceof ToolError || error instanceof LocalError) return toolError(error.message);
  deps.report(error, `tool "${entry.name}" threw`);
  if (deps.exposeErrorMessages && error instanceof Error) return toolError(error.message);
  return toolError(`Tool "${entry.name}" failed with an internal error`);
}

/** The output-schema and serialisation half of {@link checkOutput}. */
function finishStructured(
  deps: CallDependencies,
  entry: ToolEntry,
  result: CallToolResult,
): CallToolResult {
  if (
    result.structuredContent !== undefined &&
    result.content.length === 0 &&
    (entry.structuredText ?? deps.structuredText)
  ) {
    result.content = [{ type: 'text', text: JSON.stringify(result.structuredContent) }];
  }
  return result;
}

function outputBroken(
  deps: CallDependencies,
  entry: ToolEntry,
  issues: SchemaIssue[],
): CallToolResult {
  const detail = describeIssues(issues);
  deps.report(new Error(detail), `tool "${entry.name}" broke its output schema`);
  return toolError(
    `Tool "${entry.name}" returned structured content that does not match its output schema: ${detail}`,
  );
}

/** Checks what a handler returned; asynchronous only when an output schema validates asynchronously. */
function checkOutput(
  deps: CallDependencies,
  entry: ToolEntry,
  value: unknown,
): CallToolResult | Promise<CallToolResult> {
  const checked = checkToolResult(value);
  if (!checked.ok) {
    deps.report(new Error(checked.problem), `tool "${entry.name}" returned an invalid result`);
    return toolError(`Tool "${entry.name}" returned an invalid result: ${checked.problem}`);
  }
  const result = checked.result;
  if (!entry.output || result.isError === true) return finishStructured(deps, entry, result);
  if (result.structuredContent === undefined) {
    deps.report(new Error('no structuredContent'), `tool "${entry.name}" broke its output schema`);
    return toolError(
      `Tool "${entry.name}" declares an output schema but returned no structured content`,
    );
  }
  const apply = (check: ToolSchemaCheck): CallToolResult => {
    if (!check.ok) return outputBroken(deps, entry, check.issues);
    result.structuredContent = check.value as Record<string, unknown>;
    return finishStructured(deps, entry, result);
  };
  const check = entry.output.validate(result.structuredContent);
  return check instanceof Promise ? check.then(apply) : apply(check);
}

/** What the handler produced, turned into the result to send (before revision projection). */
function resultOf(
  deps: CallDependencies,
  call: { entry: ToolEntry; timeoutMs: number },
  outcome: Outcome,
): CallToolResult | Promise<CallToolResult> {
  const { entry, timeoutMs } = call;
  if (outcome.kind === 'aborted') {
    // A cancelled call gets no response at all (the connection drops it); a deadline gets one.
    return toolError(`Tool "${entry.name}" did not finish within ${timeoutMs} ms`);
  }
  if (outcome.kind === 'thrown') return thrownToResult(deps, entry, outcome.error);
  return checkOutput(deps, entry, outcome.value);
}

/** Runs the handler. A handler that returns a plain value is finished without any promise. */
function execute(
  deps: CallDependencies,
  call: { entry: ToolEntry; args: unknown; context: CallContext; request: CallRequest },
): CallToolResult | Promise<CallToolResult> {
  const { entry, context, request } = call;
  const timeoutMs = entry.timeoutMs ?? deps.defaultTimeoutMs;
  let returned: unknown;
  try {
    returned = entry.handler(call.args as never, context);
  } catch (error) {
    context.finish();
    return thrownToResult(deps, entry, error);
  }
  if (!isThenable(returned)) {
    context.finish();
    return checkOutput(deps, entry, returned);
  }
  const cancellation = request.incoming.cancellation;
  return settleWithin(returned, { entry, cancellation, timeoutMs }).then((outcome) => {
    context.finish();
    return resultOf(deps, { entry, timeoutMs }, outcome);
  });
}

/** Runs a task-augmented call: answered at once with a CreateTaskResult, the tool runs on. */
function startToolTask(
  plan: CallPlan,
  task: { tasks: TaskRuntime; ttl: number | undefined; args: Record<string, unknown> },
): Promise<CallToolResult> {
  const { deps, session, request, entry } = plan;
  const created = task.tasks.start({
    owner: ownerOf(session.info.id, request.identity),
    session: { id: session.info.id, sendTaskStatus: (t) => session.sendTaskStatus(t) },
    ttl: task.ttl,
    immediateResponse: entry.immediateResponse,
    run: async (binding, cancellation) => {
      const validated = await validateArguments(entry, task.args);
      if (!validated.ok) {
        return projected(
          plan,
          toolError(
            `Invalid arguments for tool "${entry.name}": ${describeIssues(validated.issues)}`,
          ),
        ) as unknown as JsonObject;
      }
      const incoming = { cancellation };
      const context = new CallContext({
        session,
        requestId: request.id,
        toolName: entry.name,
        meta: plan.meta,
        incoming,
        identity: request.identity,
        task: binding,
      });
      const result = await execute(deps, {
        entry,
        args: validated.value,
        context,
        request: { ...request, incoming },
      });
      return projected(plan, result) as unknown as JsonObject;
    },
  });
  // The CreateTaskResult travels where a CallToolResult would (the session sends JsonObjects).
  return created as unknown as Promise<CallToolResult>;
}

/** Everything one call needs once its tool is found (one object instead of several closures). */
interface CallPlan {
  readonly deps: CallDependencies;
  readonly session: SessionPort;
  readonly request: CallRequest;
  readonly entry: ToolEntry;
  readonly meta: Record<string, unknown> | undefined;
  readonly features: RevisionFeatures;
}

/** The result as the session's revision receives it, unless it is too large to send. */
function projected(plan: CallPlan, result: CallToolResult): CallToolResult {
  const out = callToolResultForRevision(result, plan.features);
  const { entry, deps } = plan;
  const limit = entry.maxResultBytes ?? deps.maxResultBytes;
  const size = oversizeOf(out, limit);
  if (size === undefined) return out;
  const message = `Tool "${entry.name}" returned ${size} bytes, over the ${limit}-byte limit on a result; it was not sent`;
  deps.report(new Error(message), `tool "${entry.name}" returned an oversized result`);
  return callToolResultForRevision(toolError(message), plan.features);
}

function afterValidation(
  plan: CallPlan,
  validated: ToolSchemaCheck,
): CallToolResult | Promise<CallToolResult> {
  const { entry, request } = plan;
  if (!validated.ok) {
    const message = `Invalid arguments for tool "${entry.name}": ${describeIssues(validated.issues)}`;
    if (plan.features.inputErrorsAsResults) return toolError(message);
    throw new RpcError(ErrorCode.InvalidParams, message, { issues: validated.issues });
  }
  const context = new CallContext({
    session: plan.session,
    requestId: request.id,
    toolName: entry.name,
    meta: plan.meta,
    incoming: request.incoming,
    identity: request.identity,
  });
  const result = execute(plan.deps, { entry, args: validated.value, context, request });
  return result instanceof Promise
    ? result.then((r) => projected(plan, r))
    : projected(plan, result);
}

/**
 * Runs one `tools/call` and returns the result as the session's revision allows it. Each step is
 * synchronous unless it has to wait: a tool whose schema and handler are synchronous is answered
 * without allocating a single promise.
 */
export function callTool(
  deps: CallDependencies,
  session: SessionPort,
  request: CallRequest,
): CallToolResult | Promise<CallToolResult> {
  const params = parseCallToolParams(request.params);
  const entry = deps.findTool(params.name, session, request.identity);
  if (!entry)
    throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${params.name.slice(0, 200)}`);

  const rule = entry.rateLimit === false ? undefined : (entry.rateLimit ?? deps.defaultRateLimit);
  if (rule) {
    const subject = rateLimitSubject(request.identity, request.clientAddress);
    const decision = deps.rateLimiter.take(`${subject}\u0000${entry.name}`, rule);
    if (!decision.allowed) {
      const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      return toolError(`Rate limit exceeded for tool "${entry.name}"; retry in ${seconds} s`);
    }
  }

  const features = featuresOf(session.info.protocolVersion);
  const plan: CallPlan = { deps, session, request, entry, meta: params._meta, features };
  const tasks = deps.tasks;
  if (tasks && features.tasks && (request.identity !== undefined || !session.transient)) {
    // Tool-level negotiation (2025-11-25 tasks): -32601 when the call and the tool disagree.
    const support = entry.definition.execution?.taskSupport ?? 'forbidden';
    if (params.task !== undefined && support === 'forbidden') {
      throw new RpcError(ErrorCode.MethodNotFound, `Tool "${entry.name}" cannot be run as a task`);
    }
    if (params.task === undefined && support === 'required') {
      throw new RpcError(
        ErrorCode.MethodNotFound,
        `Tool "${entry.name}" must be run as a task (send params.task)`,
      );
    }
    if (params.task !== undefined)
      return startToolTask(plan, { tasks, ttl: params.task.ttl, args: params.arguments ?? {} });
  }
  const validated = validateArguments(entry, params.arguments ?? {});
  return validated instanceof Promise
    ? validated.then((v) => afterValidation(plan, v))
    : afterValidation(plan, validated);
}

/**
 * Validates arguments decoded from JSON: first what no schema catches (an out-of-range number
 * parsed as Infinity, a key that reaches prototypes), then the tool's input schema.
 */
function validateArguments(
  entry: ToolEntry,
  args: Record<string, unknown>,
): ToolSchemaCheck | Promise<ToolSchemaCheck> {
  const problem = argumentsProblem(args);
  if (problem === undefined) return entry.input.validate(args);
  const colon = problem.indexOf(': ');
  const path = problem.slice(0, colon);
  return {
    ok: false,
    issues: [{ path: path === '(root)' ? '' : path, message: problem.slice(colon + 2) }],
  };
}

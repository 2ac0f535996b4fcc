/**
 * @module The `tools/call` pipeline: find the tool (visibility applies), rate-limit, validate the
 * arguments (error form per revision), run the handler under a deadline, check what it returned,
 * enforce the output schema, and convert the result for the session's revision.
 */
import { Deferred } from '../jsonrpc/deferred.js';
import { ErrorCode, RpcError } from '../jsonrpc/errors.js';
import type { JsonObject } from '../jsonrpc/types.js';
import { describeIssues } from '../protocol/jsonSchema.js';
import { argumentsProblem } from '../protocol/jsonValues.js';
import { parseCallToolParams } from '../protocol/params.js';
import { callToolResultForRevision } from '../protocol/projection.js';
import type { CallToolParams } from '../protocol/methods.js';
import type { CallToolResult } from '../protocol/types.js';
import { featuresOf, type RevisionFeatures } from '../protocol/versions.js';
import type { CallDependencies, CallPlan, CallRequest } from './callPlan.js';
import {
  checkOutput,
  middlewareResult,
  outputStage,
  projected,
  thrownToResult,
} from './callResult.js';
import type { MiddlewareRequest } from './middleware.js';
import { runSteps } from './middlewareChain.js';
import { PolicyRequest } from './middlewareRequest.js';
import { PendingCall } from './pendingCall.js';
import { rateLimitSubject } from './rateLimiter.js';
import { toolError, ToolError } from './results.js';
import { CallContext, type SessionPort } from './toolContext.js';
import { projectedDefinition, type ToolEntry } from './toolDefinition.js';
import type { ToolSchemaCheck } from './toolSchema.js';
import { ownerOf, type TaskRuntime } from './taskRuntime.js';

export type { CallDependencies, CallRequest } from './callPlan.js';

/** What a call answers: now, once an async check is done, or when its handler settles. */
export type CallOutcome = CallToolResult | Promise<CallToolResult> | Deferred<CallToolResult>;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * Runs the handler and answers with the projected result. A handler that returns a plain value
 * is finished without any promise; one that returns a promise becomes a {@link PendingCall}.
 */
function execute(plan: CallPlan, args: unknown, context: CallContext): CallOutcome {
  const { deps, entry } = plan;
  let returned: unknown;
  try {
    returned = entry.handler(args as never, context);
  } catch (error) {
    context.finish();
    return projected(plan, thrownToResult(deps, entry, error));
  }
  if (isThenable(returned))
    return new PendingCall(plan, context, plan.request.incoming).start(returned);
  context.finish();
  const result = checkOutput(deps, entry, returned);
  return result instanceof Promise
    ? result.then((r) => projected(plan, r))
    : projected(plan, result);
}

/** An outcome as a Promise (the task runner and the middleware chain await it). */
export function asPromise(outcome: CallOutcome): Promise<CallToolResult> {
  if (outcome instanceof Deferred) return outcome.toPromise();
  return Promise.resolve(outcome);
}

/** Runs a task-augmented call: answered at once with a CreateTaskResult, the tool runs on. */
function startToolTask(
  plan: CallPlan,
  task: { tasks: TaskRuntime; ttl: number | undefined; args: Record<string, unknown> },
): Promise<CallToolResult> {
  const { session, request, entry } = plan;
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
      const result = await asPromise(
        execute(
          { ...plan, request: { ...request, incoming: cancellation } },
          validated.value,
          context,
        ),
      );
      return result as unknown as JsonObject;
    },
  });
  // The CreateTaskResult travels where a CallToolResult would (the session sends JsonObjects).
  return created as unknown as Promise<CallToolResult>;
}

function afterValidation(plan: CallPlan, validated: ToolSchemaCheck): CallOutcome {
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
  return execute(plan, validated.value, context);
}

/** The `access` stage: the tool of that name this caller may call, else "unknown tool". */
export function accessibleTool(
  deps: CallDependencies,
  session: SessionPort,
  wanted: { name: string; identity: CallRequest['identity'] },
): ToolEntry {
  const { name, identity } = wanted;
  const entry = deps.findTool(name, session, identity);
  if (!entry) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 200)}`);
  return entry;
}

/** The `rateLimit` stage: the answer to a call over its limit, or undefined to go on. */
export function rateLimitRefusal(
  deps: CallDependencies,
  entry: ToolEntry,
  request: CallRequest,
): CallToolResult | undefined {
  const rule = entry.rateLimit === false ? undefined : (entry.rateLimit ?? deps.defaultRateLimit);
  if (!rule) return undefined;
  const subject = rateLimitSubject(request.identity, request.clientAddress);
  const decision = deps.rateLimiter.take(`${subject}\u0000${entry.name}`, rule);
  if (decision.allowed) return undefined;
  const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
  return toolError(`Rate limit exceeded for tool "${entry.name}"; retry in ${seconds} s`);
}

/**
 * Runs one `tools/call` and returns the result as the session's revision allows it. Each step is
 * synchronous unless it has to wait: a tool whose schema and handler are synchronous is answered
 * without allocating a single promise. This is the path without server-wide middleware; the
 * stages run inline, in the chain's order (see middleware.ts).
 */
export function callTool(
  deps: CallDependencies,
  session: SessionPort,
  request: CallRequest,
): CallOutcome {
  const params = parseCallToolParams(request.params);
  const entry = accessibleTool(deps, session, { name: params.name, identity: request.identity });
  const refusal = rateLimitRefusal(deps, entry, request);
  if (refusal) return refusal;
  return runTool({ deps, session, request, params, entry, staged: false });
}

/** A call whose tool was found and whose rate limit passed. */
export interface ToolRun {
  readonly deps: CallDependencies;
  readonly session: SessionPort;
  readonly request: CallRequest;
  readonly params: CallToolParams;
  readonly entry: ToolEntry;
  /** The output stage runs outside (the chain's `sanitize` stage). */
  readonly staged: boolean;
}

/**
 * The part of a call inside the stages: task negotiation, the tool's own middleware, argument
 * validation, the handler and its result. `staged`: the output stage runs outside (the chain's
 * `sanitize` stage).
 */
export function runTool(run: ToolRun): CallOutcome {
  const { deps, session, request, params, entry, staged } = run;
  const features = featuresOf(session.info.protocolVersion);
  const own = entry.middleware;
  // The tool's own middleware sit inside the output stage: it runs after them.
  const plan: CallPlan = {
    deps,
    session,
    request,
    entry,
    meta: params._meta,
    features,
    staged: staged || own !== undefined,
  };
  if (own === undefined) return negotiateAndRun(plan, params);
  const policy = request.policy ?? policyRequestOf(plan);
  const out = runSteps(
    { steps: own },
    policy,
    () => asPromise(negotiateAndRun(plan, params)) as unknown as Promise<JsonObject>,
  ).then(
    (value) => {
      // A CreateTaskResult (task-augmented call) passes; anything else is checked.
      if (value['task'] !== undefined && value['content'] === undefined)
        return value as unknown as CallToolResult;
      return middlewareResult({ deps, features, toolName: entry.name }, value);
    },
    (error: unknown) => middlewareToolError(features, error),
  );
  if (staged) return out;
  return out.then((result) => ('content' in result ? outputStage(plan, result) : result));
}

/** Task negotiation, then the task or the handler. */
function negotiateAndRun(plan: CallPlan, params: CallToolParams): CallOutcome {
  const { deps, session, request, entry, features } = plan;
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
    if (params.task !== undefined) {
      // The task's result is stored, not sent through any chain: the output stage runs here.
      return startToolTask(
        { ...plan, staged: false },
        { tasks, ttl: params.task.ttl, args: params.arguments ?? {} },
      );
    }
  }
  return validateAndRun(plan, params);
}

function validateAndRun(plan: CallPlan, params: CallToolParams): CallOutcome {
  const validated = validateArguments(plan.entry, params.arguments ?? {});
  return validated instanceof Promise
    ? validated.then((v) => asPromise(afterValidation(plan, v)))
    : afterValidation(plan, validated);
}

/** The request the tool's middleware see when no server-wide middleware made one. */
function policyRequestOf(plan: CallPlan): MiddlewareRequest {
  const { session, request, entry } = plan;
  return new PolicyRequest(
    {
      method: 'tools/call',
      params: request.params,
      requestId: request.id,
      session: session.info,
      identity: request.identity,
      clientAddress: request.clientAddress,
      networkTransport: session.networkTransport,
      tool: projectedDefinition(entry, session.info.protocolVersion),
    },
    request.incoming,
  );
}

/** A `ToolError` thrown by a middleware fails the call with its message, as from a handler. */
export function middlewareToolError(features: RevisionFeatures, error: unknown): CallToolResult {
  if (error instanceof ToolError)
    return callToolResultForRevision(toolError(error.message), features);
  throw error;
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

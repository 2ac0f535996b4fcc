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
import type { CallToolResult } from '../protocol/types.js';
import { featuresOf } from '../protocol/versions.js';
import type { CallDependencies, CallPlan, CallRequest } from './callPlan.js';
import { checkOutput, projected, thrownToResult } from './callResult.js';
import { PendingCall } from './pendingCall.js';
import { rateLimitSubject } from './rateLimiter.js';
import { toolError } from './results.js';
import { CallContext, type SessionPort } from './toolContext.js';
import type { ToolEntry } from './toolDefinition.js';
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

/** An outcome as a Promise (the task runner awaits it). */
function asPromise(outcome: CallOutcome): Promise<CallToolResult> {
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

/**
 * Runs one `tools/call` and returns the result as the session's revision allows it. Each step is
 * synchronous unless it has to wait: a tool whose schema and handler are synchronous is answered
 * without allocating a single promise.
 */
export function callTool(
  deps: CallDependencies,
  session: SessionPort,
  request: CallRequest,
): CallOutcome {
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
    ? validated.then((v) => asPromise(afterValidation(plan, v)))
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

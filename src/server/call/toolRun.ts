/**
 * @module The handler's part of a `tools/call`, inside the `sanitize` stage: the tool's own
 * middleware, task negotiation, argument validation (error form per revision), the handler under
 * a deadline, the check of what it returned and the output schema, then the result projected for
 * the session's revision and passed out through the `sanitize` stage's exit.
 */
import type { Cancellation } from '../../jsonrpc/cancellation.js';
import { Deferred } from '../../jsonrpc/deferred.js';
import { ErrorCode, RpcError } from '../../jsonrpc/errors.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import { describeIssues } from '../../protocol/jsonSchema.js';
import { argumentsProblem } from '../../protocol/jsonValues.js';
import { CallTool, type CallToolParams } from '../../protocol/methods.js';
import type { CallToolResult } from '../../protocol/types.js';
import type { CallDependencies, CallPlan, CallRequest, StageExit } from './callPlan.js';
import {
  checkOutput,
  middlewareResult,
  middlewareToolError,
  projected,
  thrownToResult,
} from './callResult.js';
import { outputPolicyOf, stageRunsOutside, throughSanitizeStage } from './sanitizeStage.js';
import type { MiddlewareRequest } from '../middleware/middleware.js';
import { runSteps } from '../middleware/middlewareChain.js';
import { PolicyRequest } from '../middleware/middlewareRequest.js';
import { PendingCall } from './pendingCall.js';
import { toolError } from '../results.js';
import { CallContext, type SessionPort, type TaskBinding } from '../toolContext.js';
import { projectedDefinition, type ToolEntry } from '../registry/toolDefinition.js';
import type { ToolSchemaCheck } from '../registry/toolSchema.js';
import type { TaskRuntime } from '../tasks/taskRuntime.js';
import { REV2025_TASKS } from '../tasks/eras/rev2025/taskCall.js';
import type { TaskGeneration } from '../tasks/taskGeneration.js';
import type { InputChannel } from '../input/inputChannel.js';
import { ReplayedInputChannel } from '../input/replayedInputChannel.js';
import { RoundTripInputChannel } from '../input/roundTripInputChannel.js';
import { DetachRequested } from '../tasks/detach.js';

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
  task: {
    tasks: TaskRuntime;
    generation: TaskGeneration;
    ttl: number | undefined;
    args: Record<string, unknown>;
    release: (() => void) | undefined;
    /** The run's input channel from the generation's (the answers of a detached call first). */
    input?: ((channel: InputChannel | undefined) => InputChannel | undefined) | undefined;
  },
): Promise<CallToolResult> {
  const { session, request, entry } = plan;
  const created = task.generation.start(task.tasks, {
    session,
    identity: request.identity,
    ttl: task.ttl,
    immediateResponse: entry.immediateResponse,
    run: async (binding, cancellation, input) => {
      try {
        const channel = task.input ? task.input(input) : input;
        return await runTask(plan, task.args, { binding, cancellation, input: channel });
      } finally {
        task.release?.(); // the slot is held while the task runs
      }
    },
  });
  // A task that could not be created never runs: its slot is freed now (release is idempotent).
  if (task.release) void created.catch(task.release);
  // The CreateTaskResult travels where a CallToolResult would (the session sends JsonObjects).
  return created as unknown as Promise<CallToolResult>;
}

/** The run of a task-augmented call: validation, then the handler, under the task's token. */
async function runTask(
  plan: CallPlan,
  args: Record<string, unknown>,
  task: { binding: TaskBinding; cancellation: Cancellation; input: InputChannel | undefined },
): Promise<JsonObject> {
  const { session, request, entry } = plan;
  const { binding, cancellation, input } = task;
  const validated = await validateArguments(entry, args);
  if (!validated.ok) {
    return projected(
      plan,
      toolError(`Invalid arguments for tool "${entry.name}": ${describeIssues(validated.issues)}`),
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
    outputPolicy: outputPolicyOf(plan.deps, entry),
    input,
  });
  const result = await asPromise(
    execute({ ...plan, request: { ...request, incoming: cancellation } }, validated.value, context),
  );
  return result as unknown as JsonObject;
}

function afterValidation(
  plan: CallPlan,
  validated: ToolSchemaCheck,
  detachable = false,
): CallOutcome {
  const { entry, request } = plan;
  if (!validated.ok) {
    const message = `Invalid arguments for tool "${entry.name}": ${describeIssues(validated.issues)}`;
    // Projected like every result: a 2026 one gets its resultType and the server's identity.
    if (plan.profile.features.inputErrorsAsResults)
      return plan.profile.callToolResult(toolError(message));
    throw new RpcError(ErrorCode.InvalidParams, message, { issues: validated.issues });
  }
  const context = new CallContext({
    session: plan.session,
    requestId: request.id,
    toolName: entry.name,
    meta: plan.meta,
    incoming: request.incoming,
    identity: request.identity,
    outputPolicy: outputPolicyOf(plan.deps, entry),
    detachable,
  });
  return execute(plan, validated.value, context);
}

/** A call whose tool was found and whose rate limit passed. */
export interface ToolRun {
  readonly deps: CallDependencies;
  readonly session: SessionPort;
  readonly request: CallRequest;
  readonly params: CallToolParams;
  readonly entry: ToolEntry;
  /**
   * The `sanitize` stage's exit for what this run answers: the stage itself on the inline path,
   * a pass-through when the chain runs the stage as one of its steps.
   */
  readonly exit: StageExit;
  /**
   * The call's concurrency slot, when a cap took one. Whoever answers the call frees it when the
   * answer settles; a task-augmented call takes the release over (clearing it here) and frees
   * the slot when the task's run ends.
   */
  readonly slot?: SlotHolder | undefined;
}

/** Holds the release of a concurrency slot until its owner frees it. */
export interface SlotHolder {
  release: (() => void) | undefined;
}

/**
 * The part of a call inside the stages: task negotiation, the tool's own middleware, argument
 * validation, the handler and its result, leaving through `run.exit`.
 */
export function runTool(run: ToolRun): CallOutcome {
  const { deps, session, request, params, entry, exit, slot } = run;
  const profile = session.profile;
  const own = entry.middleware;
  // The tool's own middleware sit inside the `sanitize` stage: its exit comes after them.
  const plan: CallPlan = {
    deps,
    session,
    request,
    entry,
    meta: params._meta,
    profile,
    exit: own === undefined ? exit : stageRunsOutside,
  };
  if (own === undefined) return negotiateAndRun(plan, params, slot);
  const policy = request.policy ?? policyRequestOf(plan);
  const scope = { deps, profile, entry };
  /** The result a converted ToolError became: already checked. */
  let recovered: JsonObject | undefined;
  const recover = (thrown: unknown): JsonObject => {
    recovered = middlewareToolError(scope, thrown) as unknown as JsonObject;
    return recovered;
  };
  const out = runSteps(
    { steps: own, recover },
    policy,
    () => asPromise(negotiateAndRun(plan, params, slot)) as unknown as Promise<JsonObject>,
  ).then(
    (value) => {
      // A CreateTaskResult (2025: `task`; the extension: `resultType: "task"`) and a converted
      // ToolError pass; the rest is checked.
      const created =
        (value['task'] !== undefined || value['resultType'] === 'task') &&
        value['content'] === undefined;
      if (value === recovered || created) return value as unknown as CallToolResult;
      return middlewareResult(scope, value);
    },
    (thrown: unknown) => middlewareToolError(scope, thrown),
  );
  return out.then((result) => ('content' in result ? exit(plan, result) : result));
}

/** Task negotiation, then the task or the handler. */
function negotiateAndRun(
  plan: CallPlan,
  params: CallToolParams,
  slot: SlotHolder | undefined,
): CallOutcome {
  const tasks = plan.deps.tasks;
  const generation = tasks && taskGenerationOf(plan);
  // The generation's negotiation: it may refuse the call (the call and the tool disagree).
  const task = generation?.taskOf(plan.entry, params);
  if (tasks && generation && task?.afterInput)
    return runThenDetach(plan, params, { tasks, generation, slot });
  if (tasks && generation && task) {
    // The task's result is stored, not sent through any chain: the output stage runs here.
    const release = slot?.release;
    if (slot) slot.release = undefined; // the task frees it when its run ends
    return startToolTask(
      { ...plan, exit: throughSanitizeStage },
      { tasks, generation, ttl: task.ttl, args: params.arguments ?? {}, release },
    );
  }
  return validateAndRun(plan, params);
}

/**
 * How the call's session runs task calls: its own generation (a 2026 request's tasks extension),
 * else 2025-11-25 tasks where the revision has them and the caller can be told apart.
 */
function taskGenerationOf(plan: CallPlan): TaskGeneration | undefined {
  const { session, request, profile } = plan;
  if (request.taskGeneration !== undefined) return request.taskGeneration;
  const toldApart = request.identity !== undefined || !session.transient;
  return profile.features.tasks && toldApart ? REV2025_TASKS : undefined;
}

function validateAndRun(plan: CallPlan, params: CallToolParams, detachable = false): CallOutcome {
  const validated = validateArguments(plan.entry, params.arguments ?? {});
  return validated instanceof Promise
    ? validated.then((v) => asPromise(afterValidation(plan, v, detachable)))
    : afterValidation(plan, validated, detachable);
}

/**
 * A tool with `inputBeforeTask` (the tasks extension): the call runs inline, its input by round
 * trip, until the handler calls `ctx.detach()`; the task is then created and the handler runs
 * again inside it, the answers the request carried given first (replayedInputChannel.ts).
 */
function runThenDetach(
  plan: CallPlan,
  params: CallToolParams,
  start: { tasks: TaskRuntime; generation: TaskGeneration; slot: SlotHolder | undefined },
): Promise<CallToolResult> {
  return asPromise(validateAndRun(plan, params, true)).catch((error: unknown) => {
    if (!(error instanceof DetachRequested)) throw error;
    const { slot } = start;
    const release = slot?.release;
    if (slot) slot.release = undefined; // the task frees it when its run ends
    const round = plan.session.input;
    const carried = round instanceof RoundTripInputChannel ? round.carriedAnswers : NO_ANSWERS;
    return startToolTask(
      { ...plan, exit: throughSanitizeStage },
      {
        tasks: start.tasks,
        generation: start.generation,
        ttl: undefined,
        args: params.arguments ?? {},
        release,
        input: (channel) => channel && new ReplayedInputChannel(carried, channel),
      },
    );
  });
}

const NO_ANSWERS: ReadonlyMap<string, unknown> = new Map();

/** The request the tool's middleware see when no server-wide middleware made one. */
function policyRequestOf(plan: CallPlan): MiddlewareRequest {
  const { session, request, entry } = plan;
  return new PolicyRequest(
    {
      method: CallTool.method,
      params: request.params,
      requestId: request.id,
      session: session.info,
      identity: request.identity,
      clientAddress: request.clientAddress,
      networkTransport: session.networkTransport,
      network: session.network,
      tool: projectedDefinition(entry, session.profile),
    },
    request.incoming,
  );
}

/**
 * Validates arguments decoded from JSON: first what no schema catches (an out-of-range number
 * parsed as Infinity, a key that reaches prototypes: `constructor` and `prototype` only pass
 * where the input schema declares them), then the tool's input schema.
 */
function validateArguments(
  entry: ToolEntry,
  args: Record<string, unknown>,
): ToolSchemaCheck | Promise<ToolSchemaCheck> {
  const input = entry.input;
  const problem = argumentsProblem(args, input.prototypeKeys) ?? input.undeclaredKeyProblem?.(args);
  if (problem === undefined) return input.validate(args);
  const colon = problem.indexOf(': ');
  const path = problem.slice(0, colon);
  return {
    ok: false,
    issues: [{ path: path === '(root)' ? '' : path, message: problem.slice(colon + 2) }],
  };
}

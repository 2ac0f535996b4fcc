/**
 * @module A `tools/call` through the server-wide middleware: the built-in stages as steps of the
 * chain (`access` finds the tool this caller may call, `rateLimit` counts the call, `sanitize`
 * runs the output stage on what comes back) around the rest of the pipeline (toolRun.ts
 * `runTool`). What leaves the chain is checked once more, unless it is the very result a stage
 * already checked, so no middleware can send a result a client cannot parse.
 */
import type { JsonObject } from '../../jsonrpc/types.js';
import { parseCallToolParams } from '../../protocol/params.js';
import type { CallToolParams } from '../../protocol/methods.js';
import type { CallToolResult } from '../../protocol/types.js';
import type { CallDependencies, CallRequest } from './callPlan.js';
import { middlewareResult, middlewareToolError } from './callResult.js';
import { outputStage, stageRunsOutside } from './sanitizeStage.js';
import { accessibleTool, admitCall } from './policyStages.js';
import { asPromise, runTool, type SlotHolder } from './toolRun.js';
import type { Admitted } from '../policy/rateLimitStore.js';
import type { MiddlewareRequest } from '../middleware/middleware.js';
import type { MiddlewareChain, PolicyStages } from '../middleware/middlewareChain.js';
import type { SessionPort } from '../toolContext.js';
import type { ToolEntry } from '../registry/toolDefinition.js';

/** A CreateTaskResult (a task-augmented call's answer) rather than a CallToolResult. */
function isTaskCreated(value: JsonObject): boolean {
  return value['task'] !== undefined && value['content'] === undefined;
}

/** Runs one `tools/call` through `chain`. */
export function callThroughChain(
  server: { readonly chain: MiddlewareChain; readonly deps: CallDependencies },
  session: SessionPort,
  request: CallRequest & { readonly policy: MiddlewareRequest },
): Promise<JsonObject> {
  const { chain, deps } = server;
  const profile = session.profile;
  let params: CallToolParams | undefined;
  let entry: ToolEntry | undefined;
  /** The last result a stage checked: passed on as is when a middleware returns it unchanged. */
  let checked: JsonObject | undefined;
  /** The concurrency slot the rateLimit stage took, if any (a task takes it over). */
  const slot: SlotHolder = { release: undefined };
  const free = () => slot.release?.();
  const check = (value: JsonObject): JsonObject => {
    if (value === checked || isTaskCreated(value)) return value;
    checked = middlewareResult({ deps, profile, entry }, value) as unknown as JsonObject;
    return checked;
  };
  // A ToolError becomes its result where a middleware throws it (see middlewareToolError).
  const recover = (thrown: unknown): JsonObject => {
    checked = middlewareToolError({ deps, profile, entry }, thrown) as unknown as JsonObject;
    return checked;
  };
  const stages: PolicyStages = {
    access: (_request, next) => {
      params = parseCallToolParams(request.params);
      entry = accessibleTool(deps, session, { name: params.name, identity: request.identity });
      return next();
    },
    rateLimit: (_request, next) => {
      // Held until what is inside answers (a middleware may answer without calling next()).
      const hold = (a: Admitted) => {
        if (a.release === undefined) return next();
        slot.release = a.release;
        return next().finally(free);
      };
      const admission = admitCall(deps, entry as ToolEntry, request);
      return admission instanceof Promise ? admission.then(hold) : hold(admission);
    },
    sanitize: (_request, next) =>
      next().then((value) => {
        if (isTaskCreated(value)) return value;
        const result = outputStage(
          { deps, entry: entry as ToolEntry, profile },
          check(value) as unknown as CallToolResult,
        );
        checked = result as unknown as JsonObject;
        return checked;
      }),
  };
  const core = () =>
    asPromise(
      runTool({
        deps,
        session,
        request,
        params: params as CallToolParams,
        entry: entry as ToolEntry,
        exit: stageRunsOutside,
        slot,
      }),
    ).then((value) => {
      checked = value as unknown as JsonObject;
      return checked;
    });
  return chain.run(request.policy, { stages, recover }, core).then(check, recover);
}

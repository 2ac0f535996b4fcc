/**
 * @module The inline composition of the `tools/call` pipeline, used when no server-wide middleware
 * is registered: the stages `access`, `rateLimit` and `sanitize` run in the chain's order as plain
 * calls, the `sanitize` stage fused into the handler's answer (`exit`), so a tool whose schema and
 * handler are synchronous is answered without allocating a single promise.
 */
import { Deferred } from '../../jsonrpc/deferred.js';
import type { CallDependencies, CallRequest } from './callPlan.js';
import { throughSanitizeStage } from './sanitizeStage.js';
import { accessibleTool, admitCall } from './policyStages.js';
import { parseCallToolParams } from '../../protocol/params.js';
import type { Admitted } from '../policy/rateLimitStore.js';
import type { SessionPort } from '../toolContext.js';
import { asPromise, runTool, type CallOutcome, type SlotHolder, type ToolRun } from './toolRun.js';

/**
 * Frees the slot in `slot` once `outcome` settles (at once for a result already there), unless a
 * task took it over meanwhile.
 */
function releasedAfter(outcome: CallOutcome, slot: SlotHolder): CallOutcome {
  const free = () => slot.release?.();
  if (outcome instanceof Deferred || outcome instanceof Promise)
    return asPromise(outcome).finally(free);
  free();
  return outcome;
}

/** Runs the call holding `admission`'s slot, if any, until it is answered. */
function runAdmitted(run: Omit<ToolRun, 'slot'>, admission: Admitted): CallOutcome {
  if (admission.release === undefined) return runTool(run);
  const slot: SlotHolder = { release: admission.release };
  let outcome: CallOutcome;
  try {
    outcome = runTool({ ...run, slot });
  } catch (error) {
    slot.release?.();
    throw error;
  }
  return releasedAfter(outcome, slot);
}

/**
 * Runs one `tools/call` and returns the result as the session's revision allows it. Each step is
 * synchronous unless it has to wait: a tool whose schema and handler are synchronous is answered
 * without allocating a single promise. This is the path without server-wide middleware; the
 * stages run inline, in the chain's order (see middleware/middleware.ts).
 */
export function callTool(
  deps: CallDependencies,
  session: SessionPort,
  request: CallRequest,
): CallOutcome {
  const params = parseCallToolParams(request.params);
  const entry = accessibleTool(deps, session, { name: params.name, identity: request.identity });
  const admission = admitCall(deps, entry, request);
  const run = { deps, session, request, params, entry, exit: throughSanitizeStage };
  if (admission instanceof Promise) return admission.then((a) => asPromise(runAdmitted(run, a)));
  return runAdmitted(run, admission);
}

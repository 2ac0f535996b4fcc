/**
 * @module The one `tools/call` pipeline of a server, made once per server: the stages `access` →
 * `rateLimit` → `sanitize` → the tool's own middleware → validation and the handler. Two
 * compositions of the same stage functions (policyStages.ts, toolRun.ts, callResult.ts):
 *
 * - inline (no server-wide middleware): the stages run as plain calls, the `sanitize` stage fused
 *   into the handler's answer, so a synchronous tool costs no promise (inlineCall.ts);
 * - chained: the stages are steps of the middleware chain, whose step list is compiled once each
 *   time a middleware is added (middleware/middlewareChain.ts), and the handler's part passes its
 *   result out to the chain's `sanitize` step (chainedCall.ts).
 *
 * The dispatcher picks one per request by whether the chain is empty.
 */
import type { JsonObject } from '../../jsonrpc/types.js';
import type { MiddlewareRequest } from '../middleware/middleware.js';
import type { MiddlewareChain } from '../middleware/middlewareChain.js';
import type { SessionPort } from '../toolContext.js';
import type { CallDependencies, CallRequest } from './callPlan.js';
import { callThroughChain } from './chainedCall.js';
import { callTool } from './inlineCall.js';
import type { CallOutcome } from './toolRun.js';

/** A server's `tools/call` pipeline. */
export class CallPipeline {
  constructor(private readonly deps: CallDependencies) {}

  /** Runs one call with no server-wide middleware registered: no chain, no request object. */
  inline(session: SessionPort, request: CallRequest): CallOutcome {
    return callTool(this.deps, session, request);
  }

  /** Runs one call through `chain`, the built-in stages as its steps. */
  chained(
    chain: MiddlewareChain,
    session: SessionPort,
    request: CallRequest & { readonly policy: MiddlewareRequest },
  ): Promise<JsonObject> {
    return callThroughChain({ chain, deps: this.deps }, session, request);
  }
}

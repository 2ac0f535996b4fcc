/**
 * @module The built-in policy stages before the handler's part of a `tools/call`: `access` (the tool
 * this caller may call) and `rateLimit` (rate limits and the concurrency cap). Both the inline
 * composition and the middleware chain run these same functions.
 */
import { ErrorCode, RpcError } from '../../jsonrpc/errors.js';
import type { CallDependencies, CallRequest } from './callPlan.js';
import { rateLimitedError, type RateLimitVerdict } from '../policy/rateLimitPolicy.js';
import type { Admitted } from '../policy/rateLimitStore.js';
import type { SessionPort } from '../toolContext.js';
import type { ToolEntry } from '../registry/toolDefinition.js';

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

/** How long a call may hold a concurrency slot: its deadline, plus a margin. */
const LEASE_MARGIN_MS = 60_000;

/**
 * The `rateLimit` stage: admits the call (with the release of its concurrency slot when a cap is
 * set) or throws the -31429 error naming the limit and the wait. Synchronous when the store is.
 */
export function admitCall(
  deps: CallDependencies,
  entry: ToolEntry,
  request: CallRequest,
): Admitted | Promise<Admitted> {
  let verdict: RateLimitVerdict | Promise<RateLimitVerdict>;
  try {
    verdict = deps.rateLimits.check({
      identity: request.identity,
      clientAddress: request.clientAddress,
      toolName: entry.name,
      toolRule: entry.rateLimit,
      leaseMs: (entry.timeoutMs ?? deps.defaultTimeoutMs) + LEASE_MARGIN_MS,
    });
  } catch (error) {
    throw storeFailed(deps, error);
  }
  if (!(verdict instanceof Promise)) return admitted(verdict, entry);
  return verdict.then(
    (v) => admitted(v, entry),
    (error: unknown) => {
      throw storeFailed(deps, error);
    },
  );
}

function admitted(verdict: RateLimitVerdict, entry: ToolEntry): Admitted {
  if (!verdict.allowed) throw rateLimitedError(verdict, entry.name);
  return verdict;
}

/** A store that failed (Redis unreachable): reported here, the call refused with -32603. */
function storeFailed(deps: CallDependencies, error: unknown): unknown {
  deps.report(
    error instanceof RpcError ? (error.cause ?? error) : error,
    'rate limit check failed',
  );
  return error;
}

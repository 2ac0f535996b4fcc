/**
 * @module The `sanitize` stage: every sanitising of a `tools/call` result goes through here (the
 * output policy of the tool over the server's, compiled once per tool), and so does the size
 * limit on what is sent. Where the stage runs: as a step of the middleware chain (chainedCall.ts),
 * or fused into the handler's answer on the inline path ({@link throughSanitizeStage}). A handler's
 * result is sanitised as soon as it is checked, before the output schema (what is validated is
 * what is sent, and middleware inside the stage receive it sanitised, as docs/server.md promises).
 */
import type { CallToolResult } from '../../protocol/types.js';
import { compileOutputPolicy, type OutputPolicy } from '../sanitize/outputPolicy.js';
import { oversizeOf } from '../sanitize/resultSize.js';
import { toolError } from '../results.js';
import { sanitizeStage } from '../sanitize/sanitizeResult.js';
import type { ToolEntry } from '../registry/toolDefinition.js';
import type { CallDependencies, CallPlan, StageExit } from './callPlan.js';

/** The output policy of `entry`'s calls (its own `sanitize` over the server's), compiled once. */
export function outputPolicyOf(deps: CallDependencies, entry: ToolEntry): OutputPolicy {
  if (entry.sanitize === undefined) return deps.outputPolicy;
  entry.outputPolicy ??= compileOutputPolicy(entry.sanitize, deps.outputPolicy);
  return entry.outputPolicy;
}

/** Sanitises a result of `entry` (the same object when there is nothing to change). */
export function sanitized(
  deps: CallDependencies,
  entry: ToolEntry,
  result: CallToolResult,
): CallToolResult {
  return sanitizeStage({ deps, entry }, result, outputPolicyOf(deps, entry));
}

/** Sanitises what a middleware answered for `entry` (the server's policy when no tool was found). */
export function sanitizedFor(
  deps: CallDependencies,
  entry: ToolEntry | undefined,
  result: CallToolResult,
): CallToolResult {
  const policy = entry ? outputPolicyOf(deps, entry) : deps.outputPolicy;
  return sanitizeStage({ deps, entry: { name: entry?.name ?? '(unknown tool)' } }, result, policy);
}

/** What the output stage needs to know of a call. */
export type OutputScope = Pick<CallPlan, 'deps' | 'entry' | 'profile'>;

/**
 * The output stage: what a tool call sends leaves through here, whoever produced it (the handler,
 * a middleware, the pipeline itself). Results larger than the tool's limit become an error result
 * saying so.
 */
export function outputStage(scope: OutputScope, out: CallToolResult): CallToolResult {
  const { deps, entry, profile } = scope;
  const limit = entry.maxResultBytes ?? deps.maxResultBytes;
  const size = oversizeOf(out, limit);
  if (size === undefined) return out;
  const message = `Tool "${entry.name}" returned ${size} bytes, over the ${limit}-byte limit on a result; it was not sent`;
  deps.report(new Error(message), `tool "${entry.name}" returned an oversized result`);
  return profile.callToolResult(toolError(message));
}

/** The `sanitize` stage's exit when the stage runs further out: the result passes unchanged. */
export const stageRunsOutside: StageExit = (_scope, result) => result;

/** The `sanitize` stage's exit when the stage sits right here: the output stage. */
export const throughSanitizeStage: StageExit = outputStage;

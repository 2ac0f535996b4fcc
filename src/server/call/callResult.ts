/**
 * @module Turning what a handler produced into the result to send: a thrown error into an
 * `isError` result (or a protocol error), a return value checked and held to the output schema,
 * then projected for the session's revision and passed out through the `sanitize` stage's exit.
 */
import { LocalError, RpcError } from '../../jsonrpc/errors.js';
import { isPlainObject } from '../../jsonrpc/guards.js';
import { describeIssues, type SchemaIssue } from '../../protocol/jsonSchema.js';
import type { CallToolResult } from '../../protocol/types.js';
import type { RevisionProfile } from '../../protocol/eras/era.js';
import type { CallDependencies, CallPlan } from './callPlan.js';
import { checkToolResult } from './resultCheck.js';
import { InputPending } from '../input/roundTripInputChannel.js';
import { DetachRequested } from '../tasks/detach.js';
import { sanitized, sanitizedFor } from './sanitizeStage.js';
import { toolError, ToolError } from '../results.js';
import type { ToolEntry } from '../registry/toolDefinition.js';
import type { ToolSchemaCheck } from '../registry/toolSchema.js';

/** A handler's thrown error as a result; an RpcError stays a protocol error (rethrown). */
export function thrownToResult(
  deps: CallDependencies,
  entry: ToolEntry,
  error: unknown,
): CallToolResult {
  if (error instanceof RpcError) throw error; // e.g. -32042 URL elicitation required: a protocol error
  if (error instanceof InputPending) throw error; // answered input_required by the call's round
  if (error instanceof DetachRequested) throw error; // the call continues as a task (toolRun.ts)
  if (error instanceof ToolError || error instanceof LocalError)
    return sanitized(deps, entry, toolError(error.message));
  deps.report(error, `tool "${entry.name}" threw`);
  if (deps.exposeErrorMessages && error instanceof Error)
    return sanitized(deps, entry, toolError(error.message));
  return toolError(`Tool "${entry.name}" failed with an internal error`);
}

/** The output-schema and serialisation half of {@link checkOutput}. */
function finishStructured(
  deps: CallDependencies,
  entry: ToolEntry,
  result: CallToolResult,
): CallToolResult {
  const structured = result.structuredContent;
  // A value that is no object always gets its JSON text (SEP-2106: peers that cannot read it
  // fall back to the text); an object unless the tool or server says otherwise.
  if (
    structured !== undefined &&
    result.content.length === 0 &&
    (!isPlainObject(structured) || (entry.structuredText ?? deps.structuredText))
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
export function checkOutput(
  deps: CallDependencies,
  entry: ToolEntry,
  value: unknown,
): CallToolResult | Promise<CallToolResult> {
  const checked = checkToolResult(value);
  if (!checked.ok) {
    deps.report(new Error(checked.problem), `tool "${entry.name}" returned an invalid result`);
    return toolError(`Tool "${entry.name}" returned an invalid result: ${checked.problem}`);
  }
  // Sanitised before the output schema check: what is validated is what is sent.
  const result = sanitized(deps, entry, checked.result);
  if (!entry.output || result.isError === true) return finishStructured(deps, entry, result);
  if (result.structuredContent === undefined) {
    deps.report(new Error('no structuredContent'), `tool "${entry.name}" broke its output schema`);
    return toolError(
      `Tool "${entry.name}" declares an output schema but returned no structured content`,
    );
  }
  const apply = (check: ToolSchemaCheck): CallToolResult => {
    if (!check.ok) return outputBroken(deps, entry, check.issues);
    result.structuredContent = check.value;
    return finishStructured(deps, entry, result);
  };
  const check = entry.output.validate(result.structuredContent);
  return check instanceof Promise ? check.then(apply) : apply(check);
}

/** The result as the session's revision receives it, then out through {@link CallPlan.exit}. */
export function projected(plan: CallPlan, result: CallToolResult): CallToolResult {
  return plan.exit(plan, plan.profile.callToolResult(result, plan.entry.output));
}

/**
 * What a middleware answered for a `tools/call`, checked like a handler's return value (so a
 * middleware cannot send what a client cannot parse) and projected for the revision.
 */
export function middlewareResult(
  scope: { deps: CallDependencies; profile: RevisionProfile; entry: ToolEntry | undefined },
  value: unknown,
): CallToolResult {
  const { deps, profile, entry } = scope;
  const toolName = entry?.name ?? '(unknown tool)';
  const checked = checkToolResult(value);
  if (checked.ok) {
    // Sanitised too: a middleware's strings reach the client like a handler's.
    const clean = sanitizedFor(deps, entry, checked.result);
    return profile.callToolResult(clean, entry?.output);
  }
  deps.report(
    new Error(checked.problem),
    `a middleware returned an invalid result for "${toolName}"`,
  );
  return profile.callToolResult(
    toolError(`The call to tool "${toolName}" produced an invalid result: ${checked.problem}`),
  );
}

/**
 * What a `ToolError` thrown by a middleware of a `tools/call` becomes, at the point it is thrown:
 * the `isError` result a handler's `ToolError` gives (its message, checked, sanitised and
 * projected for the revision), so every middleware outside receives from `next()` what the
 * client will. Anything else is rethrown (an `RpcError` stays a protocol error).
 */
export function middlewareToolError(
  scope: { deps: CallDependencies; profile: RevisionProfile; entry: ToolEntry | undefined },
  thrown: unknown,
): CallToolResult {
  if (!(thrown instanceof ToolError)) throw thrown;
  return middlewareResult(scope, toolError(thrown.message));
}

/**
 * @module The human decisions of a tool call as events of its `tools/call` span: the question
 * asked (`mcp.approval.asked`: why, the definition's fingerprint and, for a definition that
 * changed, what changed, bounded) and the decision (`mcp.approval.decided`: what, and who
 * decided). The MCP semantic conventions have nothing for them: these names are toolwire's, in
 * the `mcp` domain as OpenTelemetry's naming advice has it. The call's arguments are never
 * among them.
 */
import type { Attributes } from '@opentelemetry/api';
import type { ApprovalAsked, ApprovalDecided, DefinitionChange } from '../client/approval/steps.js';
import { cutText } from './payload.js';

/** The event names and their attribute keys. */
export const APPROVAL = {
  asked: 'mcp.approval.asked',
  decided: 'mcp.approval.decided',
  /** Why the person was asked: `first-use`, `definition-changed`, `fewer-confirmations`... */
  reason: 'mcp.approval.reason',
  /** The SHA-256 (hex) of the definition asked about (`fingerprintTool`). */
  fingerprint: 'mcp.approval.fingerprint',
  /** True when the definition would be confirmed less than before (it became read-only). */
  fewerConfirmations: 'mcp.approval.fewer_confirmations',
  /** The tool this one repeats or resembles under another name, and how much. */
  renamedFrom: 'mcp.approval.renamed_from',
  resemblance: 'mcp.approval.resemblance',
  /** The judged fields that changed (string[]), and their values before and after (JSON). */
  changedFields: 'mcp.approval.changed_fields',
  diff: 'mcp.approval.diff',
  /** `allow-once`, `allow-always`, `deny` or `not-required`. */
  decision: 'mcp.approval.decision',
  /** `person`, `stored-approval` or `policy`. */
  source: 'mcp.approval.source',
} as const;

/** The attributes of `mcp.approval.asked`; the diff at most `max` characters long. */
export function askedAttributes(step: ApprovalAsked, max: number): Attributes {
  const attributes: Attributes = {
    [APPROVAL.reason]: step.reason,
    [APPROVAL.fingerprint]: step.fingerprint,
  };
  if (step.fewerConfirmations === true) attributes[APPROVAL.fewerConfirmations] = true;
  if (step.renamedFrom) {
    attributes[APPROVAL.renamedFrom] = step.renamedFrom.from;
    attributes[APPROVAL.resemblance] = step.renamedFrom.resemblance;
  }
  const changes = step.changes;
  if (changes && changes.length > 0) {
    attributes[APPROVAL.changedFields] = changes.map((c) => c.field);
    const diff = boundedDiff(changes, max);
    if (diff !== undefined) attributes[APPROVAL.diff] = diff;
  }
  return attributes;
}

/** The attributes of `mcp.approval.decided`. */
export function decidedAttributes(step: ApprovalDecided): Attributes {
  const attributes: Attributes = {
    [APPROVAL.decision]: step.decision,
    [APPROVAL.source]: step.source,
  };
  if (step.reason !== undefined) attributes[APPROVAL.reason] = step.reason;
  return attributes;
}

/**
 * `{"<field>":{"before":…,"after":…},…}` at most `max` characters long: each value as JSON
 * (null when absent) while it fits its share, else cut, as a string ending with `…` (a string
 * value itself, another value its JSON text). Shares shrink until the whole fits; undefined when
 * even `"…"` for every value does not.
 */
export function boundedDiff(changes: readonly DefinitionChange[], max: number): string | undefined {
  for (let share = max; ; share = Math.floor(share / 2)) {
    const text = `{${changes
      .map(
        (c) =>
          `${JSON.stringify(c.field)}:{"before":${valueText(c.before, share)},"after":${valueText(c.after, share)}}`,
      )
      .join(',')}}`;
    if (text.length <= max) return text;
    if (share <= 1) return undefined;
  }
}

/** One value of the diff within `share` characters where it can be (see {@link boundedDiff}). */
function valueText(value: unknown, share: number): string {
  const json = value === undefined ? 'null' : JSON.stringify(value);
  if (json.length <= share) return json;
  return JSON.stringify(cutText(typeof value === 'string' ? value : json, Math.max(share, 1)));
}

/**
 * @module The steps of one call's approval, as the gate takes them, for whoever observes the call
 * (the client's instrumentation: `toolwire/otel` records them as events of the call's span). They
 * say what the person was asked and what decided, never the call's arguments.
 */
import type { Tool } from '../../protocol/types.js';
import type { DefinitionChange } from './fingerprint.js';
import type { ApprovalDecision, ApprovalReason } from './policy.js';
import type { Renamed } from './renames.js';

export type { DefinitionChange } from './fingerprint.js';

/** Who decided a call: the person asked, an "always allow" they gave before, or the host's policy. */
export type DecisionSource = 'person' | 'stored-approval' | 'policy';

/** The person is asked about the call (what `confirm` is shown, but the arguments). */
export interface ApprovalAsked {
  readonly step: 'asked';
  readonly reason: ApprovalReason;
  readonly tool: Tool;
  /** `fingerprintTool(tool)`: the definition the person decides about. */
  readonly fingerprint: string;
  /** As in the request: the definition allowed (or seen) before, when it changed. */
  readonly previous?: Tool;
  readonly fewerConfirmations?: boolean;
  readonly renamedFrom?: Renamed;
  /**
   * What differs from `previous` (else from the definition `renamedFrom` names): the judged
   * fields, each with its value before and now. Absent when there is nothing to compare with.
   */
  readonly changes?: readonly DefinitionChange[];
}

/** The call is decided. */
export interface ApprovalDecided {
  readonly step: 'decided';
  readonly decision: ApprovalDecision | 'not-required';
  readonly source: DecisionSource;
  /** Why the person was asked, when they were. */
  readonly reason?: ApprovalReason;
}

/** One step of a call's approval. */
export type ApprovalStep = ApprovalAsked | ApprovalDecided;

/** Hears the steps of one call's approval; must not throw (what it throws is ignored). */
export interface ApprovalObserver {
  approval(step: ApprovalStep): void;
}

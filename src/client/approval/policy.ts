/**
 * @module The human in the loop, as the host sees it: which tool calls need the user's
 * confirmation (the policy), what the user is asked and answers, where "always allow" decisions
 * are kept (a changed definition must be approved again, defeating "rug pulls"), and the audit
 * trail of what was exposed, asked, decided and returned. The gate that applies it is gate.ts.
 */
import type { Implementation, Tool } from '../../protocol/types.js';
import type { Renamed, Resemblance } from './renames.js';

/**
 * Why the user is asked: a tool not allowed always (`first-use`); one whose definition changed
 * since it was allowed always (`definition-changed`, with `previous`); one that needed
 * confirmation and whose new definition, from a server whose annotations are trusted, claims it
 * needs none (`fewer-confirmations`: it became read-only, with `previous`); every call is
 * confirmed (`confirm-every-call`).
 */
export type ApprovalReason =
  'first-use' | 'definition-changed' | 'fewer-confirmations' | 'confirm-every-call';

/** What the user is shown. */
export interface ApprovalRequest {
  readonly server: Implementation;
  readonly tool: Tool;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly reason: ApprovalReason;
  /**
   * With `definition-changed`: the definition the user had allowed, to show what changed; with
   * `fewer-confirmations`: the definition seen before, which needed confirmation.
   */
  readonly previous?: Tool;
  /**
   * True when the new definition would be confirmed less than `previous` (it claims to be
   * read-only now): a change a server could make to slip a call past the person.
   */
  readonly fewerConfirmations?: boolean;
  /**
   * A tool no longer offered whose definition this one repeats (`same`) or resembles
   * (`similar`): the server may have renamed a tool, allowed or not, to be asked about anew.
   */
  readonly renamedFrom?: Renamed;
  /**
   * The call's signal: aborted when the caller gives up (cancels, or the connection closes)
   * while the user is being asked. The host takes its question down; the call already ended.
   */
  readonly signal?: AbortSignal;
}

/** A definition the user allowed always. */
export interface ApprovedDefinition {
  /** {@link fingerprintTool} of the definition. */
  readonly fingerprint: string;
  /** The definition as it was allowed (shown as the "before" of a change). */
  readonly definition: Tool;
  /** When it was allowed (ISO 8601). */
  readonly approvedAt: string;
}

/**
 * Where "always allow" decisions of one server are kept, by tool name: in memory by default; a
 * host keeps them across runs (the CLI's approvals file), scoped to the server as the user named
 * it (never by the name a server gives itself).
 */
export interface ApprovalStore {
  get(tool: string): ApprovedDefinition | undefined | Promise<ApprovedDefinition | undefined>;
  set(tool: string, approved: ApprovedDefinition): void | Promise<void>;
  delete(tool: string): void | Promise<void>;
  /**
   * Every decision kept, by tool name: lets a tool that reappears under another name be shown
   * as "renamed from" an allowed one. Optional.
   */
  entries?():
    | ReadonlyArray<readonly [string, ApprovedDefinition]>
    | Promise<ReadonlyArray<readonly [string, ApprovedDefinition]>>;
}

/** The default store: this client's memory. */
export class MemoryApprovalStore implements ApprovalStore {
  private readonly approved = new Map<string, ApprovedDefinition>();
  get(tool: string): ApprovedDefinition | undefined {
    return this.approved.get(tool);
  }
  set(tool: string, approved: ApprovedDefinition): void {
    this.approved.set(tool, approved);
  }
  delete(tool: string): void {
    this.approved.delete(tool);
  }
  entries(): ReadonlyArray<readonly [string, ApprovedDefinition]> {
    return [...this.approved];
  }
}

/** The user's answer. */
export type ApprovalDecision = 'allow-once' | 'allow-always' | 'deny';

/** The host's policy; the host renders `confirm` as UI. */
export interface ApprovalPolicy {
  /** Ask the user. */
  confirm(request: ApprovalRequest): ApprovalDecision | Promise<ApprovalDecision>;
  /**
   * Whether calls to `tool` need confirmation at all, decided by the host alone (e.g. "confirm
   * nothing" or "confirm everything"). Without it: every call does, because annotations from an
   * untrusted server are only hints; with `trustAnnotations`, tools marked read-only do not,
   * unless the definition changed since the user allowed it always, or the tool needed
   * confirmation before this definition (`fewer-confirmations`).
   */
  needsConfirmation?(tool: Tool): boolean;
  /**
   * Trust the server's annotations: only for a server the user marked trusted (never because
   * of anything the server says). Default false.
   */
  trustAnnotations?: boolean;
  /** Where "always allow" decisions are kept. Default: in memory, for this client. */
  store?: ApprovalStore;
}

/** One entry of the audit trail. */
export type AuditEvent =
  | {
      type: 'tools-exposed';
      server: Implementation;
      tools: Array<{ name: string; fingerprint: string }>;
    }
  | {
      type: 'tool-definition-changed';
      server: Implementation;
      name: string;
      before: string;
      after: string;
    }
  | {
      /** A tool that appeared as another one disappeared, with the same or a similar definition. */
      type: 'tool-renamed';
      server: Implementation;
      name: string;
      from: string;
      resemblance: Resemblance;
    }
  | {
      type: 'call-requested';
      server: Implementation;
      tool: string;
      arguments: Readonly<Record<string, unknown>>;
    }
  | {
      type: 'call-decided';
      server: Implementation;
      tool: string;
      decision: ApprovalDecision | 'not-required';
      reason?: ApprovalReason;
    }
  | {
      type: 'call-finished';
      server: Implementation;
      tool: string;
      isError: boolean;
      durationMs: number;
    }
  | {
      type: 'call-failed';
      server: Implementation;
      tool: string;
      error: string;
      durationMs: number;
    };

/** Receives audit events; must not throw (errors are swallowed). */
export type AuditSink = (event: AuditEvent & { at: string }) => void;

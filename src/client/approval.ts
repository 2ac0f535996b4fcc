/**
 * @module The human in the loop: which tool calls need the user's confirmation, remembering
 * "always allow" per tool definition (a changed definition must be approved again, defeating
 * "rug pulls"), and an audit trail of what was exposed, asked, decided and returned.
 */
import { LocalError } from '../jsonrpc/errors.js';
import type { Implementation, Tool } from '../protocol/types.js';
import { fingerprintTool } from './fingerprint.js';

/** Why the user is asked. */
export type ApprovalReason = 'first-use' | 'definition-changed' | 'confirm-every-call';

/** What the user is shown. */
export interface ApprovalRequest {
  readonly server: Implementation;
  readonly tool: Tool;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly reason: ApprovalReason;
  /** With `definition-changed`: the definition the user had allowed, to show what changed. */
  readonly previous?: Tool;
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
}

/** The user's answer. */
export type ApprovalDecision = 'allow-once' | 'allow-always' | 'deny';

/** The host's policy; the host renders `confirm` as UI. */
export interface ApprovalPolicy {
  /** Ask the user. */
  confirm(request: ApprovalRequest): ApprovalDecision | Promise<ApprovalDecision>;
  /**
   * Whether calls to `tool` need confirmation at all. Default: every call does, because
   * annotations from an untrusted server are only hints; with `trustAnnotations`, tools marked
   * read-only do not.
   */
  needsConfirmation?(tool: Tool): boolean;
  /** Trust the server's annotations (only for servers the user trusts). Default false. */
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

/** Applies an {@link ApprovalPolicy} and writes the audit trail for one client. */
export class ApprovalGate {
  /** "Always allow" decisions, by tool name. */
  private readonly approvals: ApprovalStore;
  /** Tool name → fingerprint last seen in a listing. */
  private readonly lastSeen = new Map<string, string>();

  constructor(
    private readonly policy: ApprovalPolicy | undefined,
    private readonly sink: AuditSink | undefined,
    private readonly server: () => Implementation,
  ) {
    this.approvals = policy?.store ?? new MemoryApprovalStore();
  }

  /** Records a listing: the tools now exposed, and any whose definition changed. */
  async observe(tools: readonly Tool[]): Promise<void> {
    if (!this.policy && !this.sink) return;
    const exposed: Array<{ name: string; fingerprint: string }> = [];
    for (const tool of tools) {
      const fingerprint = await fingerprintTool(tool);
      const before = this.lastSeen.get(tool.name);
      if (before !== undefined && before !== fingerprint) {
        this.emit({
          type: 'tool-definition-changed',
          server: this.server(),
          name: tool.name,
          before,
          after: fingerprint,
        });
      }
      this.lastSeen.set(tool.name, fingerprint);
      exposed.push({ name: tool.name, fingerprint });
    }
    this.emit({ type: 'tools-exposed', server: this.server(), tools: exposed });
  }

  /** Asks for approval when the policy wants it; throws a `denied` LocalError on refusal. */
  async authorize(
    tool: Tool,
    args: Readonly<Record<string, unknown>>,
    signal?: AbortSignal,
  ): Promise<void> {
    const server = this.server();
    this.emit({ type: 'call-requested', server, tool: tool.name, arguments: args });
    const policy = this.policy;
    if (!policy || !this.needsConfirmation(policy, tool)) {
      this.emit({ type: 'call-decided', server, tool: tool.name, decision: 'not-required' });
      return;
    }
    const fingerprint = await fingerprintTool(tool);
    const allowed = await this.approvals.get(tool.name);
    if (allowed?.fingerprint === fingerprint) {
      this.emit({ type: 'call-decided', server, tool: tool.name, decision: 'allow-always' });
      return;
    }
    // The approval of the old definition stays on record (it allows nothing now) so that every
    // question until the new one is allowed can show what changed.
    const reason: ApprovalReason = allowed !== undefined ? 'definition-changed' : 'first-use';
    const asked = Date.now();
    const decision = await untilAborted(
      policy.confirm({
        server,
        tool,
        arguments: args,
        reason,
        ...(allowed !== undefined ? { previous: allowed.definition } : {}),
        ...(signal ? { signal } : {}),
      }),
      signal,
      () => new LocalError('aborted', `The call to tool "${tool.name}" was cancelled`),
    ).catch((error: unknown) => {
      // The trail shows how a request that was never decided ended.
      this.finished(tool.name, { error }, asked);
      throw error;
    });
    this.emit({ type: 'call-decided', server, tool: tool.name, decision, reason });
    if (decision === 'deny')
      throw new LocalError('denied', `The user denied the call to tool "${tool.name}"`);
    if (decision === 'allow-always')
      await this.approvals.set(tool.name, {
        fingerprint,
        definition: tool,
        approvedAt: new Date().toISOString(),
      });
  }

  /** Records the end of a call. */
  finished(
    tool: string,
    outcome: { isError: boolean } | { error: unknown },
    startedAt: number,
  ): void {
    const durationMs = Date.now() - startedAt;
    const server = this.server();
    if ('error' in outcome) {
      const error = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
      this.emit({ type: 'call-failed', server, tool, error, durationMs });
    } else {
      this.emit({ type: 'call-finished', server, tool, isError: outcome.isError, durationMs });
    }
  }

  private needsConfirmation(policy: ApprovalPolicy, tool: Tool): boolean {
    if (policy.needsConfirmation) return policy.needsConfirmation(tool);
    return !(policy.trustAnnotations === true && tool.annotations?.readOnlyHint === true);
  }

  private emit(event: AuditEvent): void {
    if (!this.sink) return;
    try {
      this.sink({ ...event, at: new Date().toISOString() });
    } catch {
      // An audit sink that throws must not break tool calls.
    }
  }
}

/**
 * `answer`, or the error of `signal`'s abort if that comes first: a caller who gave up is not kept
 * waiting on a question nobody may ever answer.
 */
function untilAborted<T>(
  answer: T | Promise<T>,
  signal: AbortSignal | undefined,
  abortError: () => Error,
): Promise<T> {
  if (!signal) return Promise.resolve(answer);
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(answer).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * @module {@link ApprovalGate}: applies a host's {@link ApprovalPolicy} to each call of one client
 * and writes the audit trail. Annotations decide nothing unless the user trusts the server; even
 * then a tool that claims to need no confirmation is asked about when that claim is new (its
 * definition changed since the user allowed it always, or it needed confirmation before). It
 * also notices what a server does between listings: definitions that change, and tools that
 * reappear under another name.
 */
import { LocalError } from '../../jsonrpc/errors.js';
import type { Implementation, Tool } from '../../protocol/types.js';
import { definitionChanges, fingerprintTool } from './fingerprint.js';
import {
  MemoryApprovalStore,
  type ApprovalPolicy,
  type ApprovalReason,
  type ApprovalStore,
  type ApprovedDefinition,
  type AuditEvent,
  type AuditSink,
} from './policy.js';
import { renamedFrom, type Renamed } from './renames.js';
import type { ApprovalObserver, ApprovalStep } from './steps.js';

/** How many withdrawn tools are remembered to recognise a renamed one. */
const GONE = 256;

/** What to do about one call. */
type Verdict =
  | { ask: false; decision: 'not-required' | 'allow-always' }
  | {
      ask: true;
      reason: ApprovalReason;
      previous?: Tool;
      fewerConfirmations?: boolean;
      renamedFrom?: Renamed;
    };

const readOnly = (tool: Tool): boolean => tool.annotations?.readOnlyHint === true;

/** Applies an {@link ApprovalPolicy} and writes the audit trail for one client. */
export class ApprovalGate {
  /** "Always allow" decisions, by tool name. */
  private readonly approvals: ApprovalStore;
  /** The tools of the latest listing, by name, with their fingerprints. */
  private listed = new Map<string, { tool: Tool; fingerprint: string }>();
  /** Tools listed earlier and withdrawn since, by name (the newest {@link GONE}). */
  private readonly gone = new Map<string, Tool>();
  /** For a tool whose definition changed while this client listened: the one before. */
  private readonly changedFrom = new Map<string, Tool>();
  /** Tools that appeared as others were withdrawn, with what they resemble. */
  private readonly renamed = new Map<string, Renamed>();

  constructor(
    private readonly policy: ApprovalPolicy | undefined,
    private readonly sink: AuditSink | undefined,
    private readonly server: () => Implementation,
  ) {
    this.approvals = policy?.store ?? new MemoryApprovalStore();
  }

  /**
   * Records a listing: the tools now exposed, those whose definition changed, and those that
   * appeared as another with the same or a similar definition was withdrawn (a rename).
   */
  async observe(tools: readonly Tool[]): Promise<void> {
    if (!this.policy && !this.sink) return;
    const next = new Map<string, { tool: Tool; fingerprint: string }>();
    for (const tool of tools)
      next.set(tool.name, { tool, fingerprint: await fingerprintTool(tool) });
    const first = this.listed.size === 0;
    for (const [name, { tool }] of this.listed) {
      if (next.has(name)) continue;
      this.gone.delete(name);
      this.gone.set(name, tool);
      if (this.gone.size > GONE) this.gone.delete(this.gone.keys().next().value ?? '');
    }
    const server = this.server();
    for (const [name, { tool, fingerprint }] of next) {
      const before = this.listed.get(name);
      if (before !== undefined && before.fingerprint !== fingerprint) {
        this.changedFrom.set(name, before.tool);
        this.emit({
          type: 'tool-definition-changed',
          server,
          name,
          before: before.fingerprint,
          after: fingerprint,
        });
      }
      if (before === undefined && !first) {
        const found = renamedFrom(tool, this.gone.values());
        if (found) {
          this.renamed.set(name, found);
          this.emit({
            type: 'tool-renamed',
            server,
            name,
            from: found.from,
            resemblance: found.resemblance,
          });
        }
      }
      this.gone.delete(name);
    }
    this.listed = next;
    this.emit({
      type: 'tools-exposed',
      server,
      tools: [...next].map(([name, { fingerprint }]) => ({ name, fingerprint })),
    });
  }

  /**
   * Asks for approval when the policy wants it; throws a `denied` LocalError on refusal. The
   * call's `signal` takes the question down; its `observer` hears each step (asked, decided).
   */
  async authorize(
    tool: Tool,
    args: Readonly<Record<string, unknown>>,
    call: { signal?: AbortSignal | undefined; observer?: ApprovalObserver | undefined } = {},
  ): Promise<void> {
    const { signal, observer } = call;
    const server = this.server();
    this.emit({ type: 'call-requested', server, tool: tool.name, arguments: args });
    const policy = this.policy;
    if (!policy) {
      this.emit({ type: 'call-decided', server, tool: tool.name, decision: 'not-required' });
      return;
    }
    const fingerprint = await fingerprintTool(tool);
    const verdict = await this.verdict(policy, tool, fingerprint);
    if (!verdict.ask) {
      this.emit({ type: 'call-decided', server, tool: tool.name, decision: verdict.decision });
      const source = verdict.decision === 'allow-always' ? 'stored-approval' : 'policy';
      if (observer) tell(observer, { step: 'decided', decision: verdict.decision, source });
      return;
    }
    const { ask: _ask, reason, ...shown } = verdict;
    if (observer) tell(observer, askedStep(verdict, tool, fingerprint));
    const asked = Date.now();
    const decision = await untilAborted(
      policy.confirm({
        server,
        tool,
        arguments: args,
        reason,
        ...shown,
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
    if (observer) tell(observer, { step: 'decided', decision, source: 'person', reason });
    if (decision === 'deny')
      throw new LocalError('denied', `The user denied the call to tool "${tool.name}"`);
    if (decision === 'allow-always') {
      await this.approvals.set(tool.name, {
        fingerprint,
        definition: tool,
        approvedAt: new Date().toISOString(),
      });
      this.changedFrom.delete(tool.name);
    }
  }

  /**
   * Whether the user is asked about this call, and why. The approval of an old definition stays
   * on record (it allows nothing now) so that every question until the new one is allowed can
   * show what changed.
   */
  private async verdict(policy: ApprovalPolicy, tool: Tool, fingerprint: string): Promise<Verdict> {
    // The host decides alone ("confirm nothing", "confirm everything").
    if (policy.needsConfirmation && !policy.needsConfirmation(tool))
      return { ask: false, decision: 'not-required' };
    const allowed = await this.approvals.get(tool.name);
    if (allowed?.fingerprint === fingerprint) return { ask: false, decision: 'allow-always' };
    if (!policy.needsConfirmation && policy.trustAnnotations === true && readOnly(tool)) {
      // A trusted server's read-only tool runs unasked, unless being read-only is new.
      if (allowed !== undefined)
        return {
          ask: true,
          reason: 'definition-changed',
          previous: allowed.definition,
          fewerConfirmations: !readOnly(allowed.definition),
        };
      const before = this.changedFrom.get(tool.name);
      if (before !== undefined && !readOnly(before))
        return {
          ask: true,
          reason: 'fewer-confirmations',
          previous: before,
          fewerConfirmations: true,
        };
      return { ask: false, decision: 'not-required' };
    }
    if (allowed !== undefined)
      return { ask: true, reason: 'definition-changed', previous: allowed.definition };
    const renamed = this.renamed.get(tool.name) ?? (await this.renamedFromKept(tool));
    return { ask: true, reason: 'first-use', ...(renamed ? { renamedFrom: renamed } : {}) };
  }

  /** A tool allowed always under another name, no longer listed, that this one resembles. */
  private async renamedFromKept(tool: Tool): Promise<Renamed | undefined> {
    const kept: ReadonlyArray<readonly [string, ApprovedDefinition]> =
      (await this.approvals.entries?.()) ?? [];
    const withdrawn = kept
      .filter(([name]) => !this.listed.has(name))
      .map(([, approved]) => approved.definition);
    return renamedFrom(tool, [...this.gone.values(), ...withdrawn]);
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

  private emit(event: AuditEvent): void {
    if (!this.sink) return;
    try {
      this.sink({ ...event, at: new Date().toISOString() });
    } catch {
      // An audit sink that throws must not break tool calls.
    }
  }
}

/** Tells `observer` a step; an observer that throws changes nothing about the call. */
function tell(observer: ApprovalObserver, step: ApprovalStep): void {
  try {
    observer.approval(step);
  } catch {
    // Instrumentation never fails a call.
  }
}

/** The step of asking, with what changed since the definition the person is shown it against. */
function askedStep(
  verdict: Extract<Verdict, { ask: true }>,
  tool: Tool,
  fingerprint: string,
): ApprovalStep {
  const { ask: _ask, ...shown } = verdict;
  const before = verdict.previous ?? verdict.renamedFrom?.definition;
  return {
    step: 'asked',
    ...shown,
    tool,
    fingerprint,
    ...(before ? { changes: definitionChanges(before, tool) } : {}),
  };
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

/**
 * @module A tool call whose handler went async. Three things race: the handler settles, the call
 * is cancelled (by the peer, or the session ending), or its deadline passes. The first one wins
 * and settles the call's {@link Deferred} with the result to send (projected for the revision),
 * which the connection answers from directly.
 *
 * Why a class and not a chain of promises: an async handler used to cost a wrapping Promise, a
 * timer, a cancellation listener and three more `.then` hops on top of its own promise, about
 * half of a call's CPU time in the stdio benchmark. Here it costs the handler's promise, one
 * `.then`, a Set entry in the server's {@link DeadlineSweep} and one cancellation listener.
 */
import type { CancelSource, CancelWatcher } from '../../jsonrpc/cancellation.js';
import { Deferred } from '../../jsonrpc/deferred.js';
import { LocalError } from '../../jsonrpc/errors.js';
import type { CallToolResult } from '../../protocol/types.js';
import type { CallPlan } from './callPlan.js';
import { checkOutput, projected, thrownToResult } from './callResult.js';
import type { Expiring } from './deadlineSweep.js';
import { toolError } from '../results.js';
import type { CallContext } from '../toolContext.js';

/** One call in flight after its handler returned a promise. */
export class PendingCall extends Deferred<CallToolResult> implements Expiring, CancelWatcher {
  readonly deadlineAt: number;
  sweepPrev: Expiring | undefined = undefined;
  sweepNext: Expiring | undefined = undefined;
  sweepWatched = false;
  private running = true;

  constructor(
    private readonly plan: CallPlan,
    private readonly context: CallContext,
    private readonly source: CancelSource,
  ) {
    super();
    this.deadlineAt = Date.now() + this.timeoutMs;
  }

  private get timeoutMs(): number {
    return this.plan.entry.timeoutMs ?? this.plan.deps.defaultTimeoutMs;
  }

  /** Starts waiting for `returned`; the call settles itself from here on. */
  start(returned: PromiseLike<unknown>): this {
    this.plan.deps.deadlines.add(this);
    this.source.watch(this);
    returned.then(this.onValue, this.onThrown);
    return this;
  }

  /** The deadline passed: cancel the call (its handler's signal aborts) and answer so. */
  expire(): void {
    const { entry } = this.plan;
    this.source.cancel(
      new LocalError('timeout', `Tool "${entry.name}" did not finish within ${this.timeoutMs} ms`),
    );
  }

  private readonly onValue = (value: unknown): void => {
    if (!this.end()) return;
    let result;
    try {
      result = checkOutput(this.plan.deps, this.plan.entry, value);
    } catch (error) {
      this.reject(error);
      return;
    }
    if (result instanceof Promise)
      result.then(
        (checked) => this.answer(checked),
        (error: unknown) => this.reject(error),
      );
    else this.answer(result);
  };

  private readonly onThrown = (error: unknown): void => {
    if (!this.end()) return;
    try {
      this.answer(thrownToResult(this.plan.deps, this.plan.entry, error));
    } catch (rpcError) {
      this.reject(rpcError); // an RpcError the handler threw is the call's protocol error
    }
  };

  /**
   * Cancelled by the peer (the connection then sends nothing), by the session ending, or by the
   * deadline (then this answer is sent).
   */
  cancelled(): void {
    if (!this.end()) return;
    this.answer(
      toolError(`Tool "${this.plan.entry.name}" did not finish within ${this.timeoutMs} ms`),
    );
  }

  private answer(result: CallToolResult): void {
    this.resolve(projected(this.plan, result));
  }

  /** Marks the race as decided; false when it already was. */
  private end(): boolean {
    if (!this.running) return false;
    this.running = false;
    this.plan.deps.deadlines.remove(this);
    this.source.unwatch();
    this.context.finish();
    return true;
  }
}

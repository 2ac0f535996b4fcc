/**
 * @module The server's middleware, in the order they run: each placed in one of four slots around
 * the built-in stages (see middleware.ts), compiled into one flat list whenever one is added, and
 * run per request by index (no array or closure per step beyond each `next`).
 */
import { Deferred } from '../jsonrpc/deferred.js';
import type { JsonObject } from '../jsonrpc/types.js';
import {
  POLICY_STAGES,
  type Middleware,
  type MiddlewareNext,
  type MiddlewarePlacement,
  type MiddlewareRequest,
  type PolicyStage,
} from './middleware.js';

/** The built-in stages of one `tools/call`, as the session provides them. */
export type PolicyStages = Readonly<Record<PolicyStage, Middleware>>;

/** What the innermost step answers: a result now, later, or through a Deferred. */
export type CoreOutcome = JsonObject | Promise<JsonObject> | Deferred<JsonObject>;

/** The slot a placement puts a middleware in: 0 outside `access` ... 3 inside `sanitize`. */
function slotOf(placement: MiddlewarePlacement | undefined): number {
  if (placement === undefined) return POLICY_STAGES.length;
  if (typeof placement !== 'object' || placement === null)
    throw new TypeError(
      'The placement of a middleware must be { before: stage } or { after: stage }',
    );
  const before = 'before' in placement ? placement.before : undefined;
  const after = 'after' in placement ? placement.after : undefined;
  if ((before === undefined) === (after === undefined))
    throw new TypeError('The placement of a middleware names exactly one of before and after');
  const stage = (before ?? after) as PolicyStage;
  const index = POLICY_STAGES.indexOf(stage);
  if (index < 0)
    throw new TypeError(
      `Unknown stage ${JSON.stringify(stage)}: use one of ${POLICY_STAGES.map((s) => `"${s}"`).join(', ')}`,
    );
  return before !== undefined ? index : index + 1;
}

function asPromise(outcome: CoreOutcome): Promise<JsonObject> {
  return outcome instanceof Deferred ? outcome.toPromise() : Promise.resolve(outcome);
}

/** The server-wide middleware, in slots around the stages. */
export class MiddlewareChain {
  private readonly slots: Middleware[][] = POLICY_STAGES.map(() => []).concat([[]]);
  /** For `tools/call`: middleware and runs of consecutive stages, outermost first. */
  private callSteps: readonly ChainStep[] = [POLICY_STAGES];
  /** For every other method: the middleware only (the stages concern tool calls). */
  private otherSteps: readonly Middleware[] = [];

  /** True when no middleware was added: the server then runs its stages inline. */
  get empty(): boolean {
    return this.otherSteps.length === 0;
  }

  /** Adds `middleware` at `placement` (default: innermost, around the handler). */
  add(middleware: Middleware, placement?: MiddlewarePlacement): void {
    if (typeof middleware !== 'function') throw new TypeError('A middleware must be a function');
    const slot = slotOf(placement);
    this.slots[slot]?.push(middleware);
    const steps: ChainStep[] = [];
    let run: PolicyStage[] = [];
    this.slots.forEach((slotted, i) => {
      if (slotted.length > 0) {
        if (run.length > 0) steps.push(run);
        run = [];
        steps.push(...slotted);
      }
      const stage = POLICY_STAGES[i];
      if (stage !== undefined) run.push(stage);
    });
    if (run.length > 0) steps.push(run);
    this.callSteps = steps;
    this.otherSteps = this.slots.flat();
  }

  /**
   * Runs `request` through the chain to `core`. `stages` are the built-in stages of a tool call;
   * without them (any other method) only the middleware run.
   */
  run(
    request: MiddlewareRequest,
    stages: PolicyStages | undefined,
    core: () => CoreOutcome,
  ): Promise<JsonObject> {
    return runSteps({ steps: stages ? this.callSteps : this.otherSteps, stages }, request, core);
  }
}

/** A step of the chain: a middleware, or a run of consecutive built-in stages. */
export type ChainStep = Middleware | readonly PolicyStage[];

/** Runs `stages[from..]` around `next`, one inside the other, without the chain's bookkeeping. */
function runStages(
  run: { readonly names: readonly PolicyStage[]; readonly stages: PolicyStages },
  request: MiddlewareRequest,
  next: MiddlewareNext,
): JsonObject | Promise<JsonObject> {
  const { names, stages } = run;
  const at = (i: number): JsonObject | Promise<JsonObject> => {
    const name = names[i];
    if (name === undefined) return next();
    return stages[name](request, () => Promise.resolve(at(i + 1)));
  };
  return at(0);
}

/**
 * Runs `chain.steps` outermost first (stage runs through `chain.stages`), then `core`. Each `next`
 * may be called once. Not an async function: a step that answers synchronously costs no extra
 * promise, and one that throws rejects.
 */
export function runSteps(
  chain: { readonly steps: readonly ChainStep[]; readonly stages?: PolicyStages | undefined },
  request: MiddlewareRequest,
  core: () => CoreOutcome,
): Promise<JsonObject> {
  const { steps, stages } = chain;
  const dispatch = (index: number): Promise<JsonObject> => {
    try {
      if (index >= steps.length) return asPromise(core());
      const step = steps[index] as ChainStep;
      let called = false;
      const next: MiddlewareNext = () => {
        if (called) return Promise.reject(new Error('A middleware called next() more than once'));
        called = true;
        return dispatch(index + 1);
      };
      const out =
        typeof step === 'function'
          ? step(request, next)
          : runStages({ names: step, stages: stages as PolicyStages }, request, next);
      return out instanceof Promise ? out : Promise.resolve(out);
    } catch (error) {
      return Promise.reject(asError(error));
    }
  };
  return dispatch(0);
}

/** A thrown value as an Error (a non-Error throw is wrapped, its text kept). */
function asError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}

/**
 * @module The server's middleware, in the order they run: each placed in one of four slots around
 * the built-in stages (see middleware.ts), compiled into one flat list whenever one is added, and
 * run per request by index (no array or closure per step beyond each `next`).
 */
import { Deferred } from '../../jsonrpc/deferred.js';
import type { JsonObject } from '../../jsonrpc/types.js';
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

/**
 * Turns what a middleware threw into the answer the client will receive (for `tools/call`, a
 * `ToolError` becomes its `isError` result), or rethrows it.
 */
export type Recover = (thrown: unknown) => JsonObject;

/** How a `tools/call` runs through the chain: its built-in stages, and what a `ToolError` becomes. */
export interface CallSteps {
  readonly stages: PolicyStages;
  readonly recover: Recover;
}

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
   * Runs `request` through the chain to `core`. `call` holds the built-in stages of a tool call;
   * without it (any other method) only the middleware run.
   */
  run(
    request: MiddlewareRequest,
    call: CallSteps | undefined,
    core: () => CoreOutcome,
  ): Promise<JsonObject> {
    if (call === undefined) return runSteps({ steps: this.otherSteps }, request, core);
    const { stages, recover } = call;
    return runSteps({ steps: this.callSteps, stages, recover }, request, core);
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

/** The steps {@link runSteps} runs. */
export interface StepRun {
  readonly steps: readonly ChainStep[];
  readonly stages?: PolicyStages | undefined;
  /**
   * Applied where a middleware throws, so every middleware outside it receives from `next()` the
   * answer the client will (a `tools/call`'s `ToolError` as its `isError` result).
   */
  readonly recover?: Recover | undefined;
}

/**
 * Runs `chain.steps` outermost first (stage runs through `chain.stages`), then `core`. Each `next`
 * may be called once. Not an async function: a step that answers synchronously costs no extra
 * promise, and one that throws rejects.
 */
export function runSteps(
  chain: StepRun,
  request: MiddlewareRequest,
  core: () => CoreOutcome,
): Promise<JsonObject> {
  const { steps, stages, recover } = chain;
  const dispatch = (index: number): Promise<JsonObject> => {
    let middleware = false;
    try {
      if (index >= steps.length) return asPromise(core());
      const step = steps[index] as ChainStep;
      let called = false;
      const next: MiddlewareNext = () => {
        if (called) return Promise.reject(new Error('A middleware called next() more than once'));
        called = true;
        return dispatch(index + 1);
      };
      middleware = typeof step === 'function';
      const out =
        typeof step === 'function'
          ? step(request, next)
          : runStages({ names: step, stages: stages as PolicyStages }, request, next);
      if (!(out instanceof Promise)) return Promise.resolve(out);
      return middleware && recover ? out.catch(recover) : out;
    } catch (error) {
      return middleware && recover ? recovered(recover, error) : Promise.reject(asError(error));
    }
  };
  return dispatch(0);
}

/** What `recover` makes of a synchronous throw, as a promise. */
function recovered(recover: Recover, thrown: unknown): Promise<JsonObject> {
  try {
    return Promise.resolve(recover(thrown));
  } catch (error) {
    return Promise.reject(asError(error));
  }
}

/** A thrown value as an Error (a non-Error throw is wrapped, its text kept). */
function asError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}

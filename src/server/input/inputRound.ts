/**
 * @module One `tools/call` of the 2026 era with its input round trips (basic/patterns/mrtr). The
 * call's request may be a retry: its `requestState` (checked: see requestState.ts) carries the
 * answers of earlier rounds and the keys the last round asked, and its `inputResponses` the new
 * answers; only answers to those keys are taken, so a first request cannot claim an answer the
 * server never asked for (an approval, say). When the handler asks for input it was not given,
 * the call ends with an `input_required` result carrying every unanswered request and a new
 * signed state, whatever the handler did after (it runs again from the start on the retry).
 */
import { Deferred } from '../../jsonrpc/deferred.js';
import { ErrorCode, RpcError } from '../../jsonrpc/errors.js';
import { isPlainObject } from '../../jsonrpc/guards.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import type { RevisionProfile } from '../../protocol/eras/era.js';
import type { ClientCapabilities } from '../../protocol/types.js';
import { ToolError, toolError } from '../results.js';
import type { CallRound, RoundOutcome } from '../dispatch/requestScope.js';
import {
  argumentsDigest,
  RequestStateCodec,
  type RoundCall,
  type RoundState,
} from './requestState.js';
import { RoundTripInputChannel } from './roundTripInputChannel.js';
import { MemorySpentStates, type SpentStateStore } from './spentStates.js';

/** The server's round-trip settings (a host may share the codec's secret and the store later). */
export interface RoundTripOptions {
  codec: RequestStateCodec;
  /** Where states whose approval was used are remembered. */
  spent: SpentStateStore;
  /** Rounds of input one call may ask for. */
  readonly maxRounds: number;
  /** How long a client has to answer one round, in milliseconds. */
  readonly stateTtlMs: number;
  /** The server's error report (`onerror`): a spent-state store that fails is told here. */
  readonly report: (error: unknown, what: string) => void;
}

/** The server option `inputRoundTrips`: how 2026 calls ask for input. */
export interface InputRoundTripOptions {
  /**
   * The secret that signs each `requestState` (at least 32 bytes). Give every instance behind a
   * load balancer the same one, so a retry may reach any of them. Default: random, this process.
   */
  secret?: string | Uint8Array;
  /** Rounds of input one call may ask for; a call asking for more ends with an error result. Default 8. */
  maxRounds?: number;
  /** How long a client has to answer one round, in milliseconds. Default 600 000 (10 minutes). */
  ttlMs?: number;
  /**
   * Where states whose approval (`ctx.confirm`) was used are remembered, so that a retry sent
   * again cannot reuse the approval. Default: this process's memory; behind a load balancer, one
   * every instance shares (`serve --redis` keeps them in Redis).
   */
  spentStates?: SpentStateStore;
}

/** The server's round-trip settings from its option (a RangeError naming what is wrong). */
export function roundTripOptions(
  option: InputRoundTripOptions | undefined,
  report: RoundTripOptions['report'],
): RoundTripOptions {
  const maxRounds = option?.maxRounds ?? 8;
  const stateTtlMs = option?.ttlMs ?? 600_000;
  if (!Number.isSafeInteger(maxRounds) || maxRounds < 1)
    throw new RangeError('inputRoundTrips.maxRounds must be a whole number, 1 or more');
  if (!Number.isSafeInteger(stateTtlMs) || stateTtlMs < 1)
    throw new RangeError('inputRoundTrips.ttlMs must be a whole number of milliseconds, 1 or more');
  return {
    codec: new RequestStateCodec(option?.secret),
    spent: option?.spentStates ?? new MemorySpentStates(),
    maxRounds,
    stateTtlMs,
    report,
  };
}

const NO_ANSWERS: ReadonlyMap<string, unknown> = new Map();

/** 128 random bits, base64url: the id a state is spent by. */
function randomStateId(): string {
  let text = '';
  for (const byte of crypto.getRandomValues(new Uint8Array(16))) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function invalid(detail: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, `Invalid inputResponses: ${detail}`);
}

/** An answer to the request `key` asked, checked for its kind's shape (-32602 when it is not). */
export function checkedInputAnswer(key: string, kind: string, value: unknown): unknown {
  if (!isPlainObject(value)) throw invalid(`the answer to "${key.slice(0, 40)}" is not an object`);
  if (
    kind === 'elicitation' &&
    !['accept', 'decline', 'cancel'].includes(value['action'] as string)
  )
    throw invalid(`the answer to "${key}" has no action of accept, decline or cancel`);
  if (kind === 'sampling' && (typeof value['role'] !== 'string' || value['content'] === undefined))
    throw invalid(`the answer to "${key}" is not a sampling result (role, content)`);
  if (kind === 'roots' && !Array.isArray(value['roots']))
    throw invalid(`the answer to "${key}" has no roots list`);
  return value;
}

/** The input round trips of one 2026 `tools/call`. */
export class InputRound implements CallRound {
  private channelValue: RoundTripInputChannel | undefined;
  /** The answers of earlier rounds and of this retry, once its state is checked. */
  private answers: ReadonlyMap<string, unknown> = NO_ANSWERS;
  private prior: RoundState | undefined;

  constructor(
    private readonly options: RoundTripOptions,
    private readonly params: JsonObject | undefined,
    private readonly principal: string,
  ) {}

  /** The call a state must have been issued for. */
  private async call(): Promise<RoundCall> {
    const params = this.params;
    const args = params?.['arguments'];
    return {
      tool: typeof params?.['name'] === 'string' ? params['name'] : '',
      args: await argumentsDigest(isPlainObject(args) ? args : undefined),
      principal: this.principal,
    };
  }

  /**
   * A retry: checks its state (-32602 when refused) and takes its new answers for the keys the
   * last round asked. Without a state, answers are ignored: a first request cannot claim one.
   */
  private async resume(token: unknown): Promise<void> {
    const prior = await this.options.codec.open(token, await this.call(), Date.now());
    const answers = new Map<string, unknown>(Object.entries(prior.answers));
    const responses = this.params?.['inputResponses'];
    if (responses !== undefined && !isPlainObject(responses)) throw invalid('not an object');
    if (responses !== undefined)
      for (const [key, kind] of Object.entries(prior.asked))
        if (Object.hasOwn(responses, key))
          answers.set(key, checkedInputAnswer(key, kind, responses[key]));
    this.prior = prior;
    this.answers = answers;
  }

  /** The call's input channel (one per call). */
  channel(capabilities: ClientCapabilities, profile: RevisionProfile): RoundTripInputChannel {
    return (this.channelValue ??= new RoundTripInputChannel(capabilities, profile, {
      answers: this.answers,
      spend: () => this.spendState(),
    }));
  }

  private spending: Promise<boolean> | undefined;

  /**
   * Spends the state this retry carries (an approval in it is being used): true the first time,
   * false when it was spent before, or has no id to spend it by. A store that cannot record it
   * (Redis out of memory or away) rejects with a {@link ToolError}: the approved work does not
   * run, and the same retry may be sent again once the store is back.
   */
  private spendState(): Promise<boolean> {
    const prior = this.prior;
    const id = prior?.id;
    if (prior === undefined || id === undefined) return (this.spending ??= Promise.resolve(false));
    const { spent, report } = this.options;
    return (this.spending ??= (async () => {
      try {
        return await spent.spend(id, prior.expiresAt);
      } catch (error) {
        report(error, 'spent request states');
        throw new ToolError(
          'This approval could not be recorded (the server could not reach its state store), ' +
            'so nothing was done: send the same request again later',
        );
      }
    })());
  }

  /** The call asked for input it was not given (or misused a key, which ends it too). */
  private get waiting(): boolean {
    const channel = this.channelValue;
    return channel !== undefined && (channel.pending.size > 0 || channel.fault !== undefined);
  }

  /** Runs the call; its outcome, or `input_required` when it asked for input it was not given. */
  run(profile: RevisionProfile, call: () => RoundOutcome): RoundOutcome {
    const token = this.params?.['requestState'];
    if (token === undefined) return this.runOnce(profile, call);
    return this.resume(token).then(() => {
      const outcome = this.runOnce(profile, call);
      return outcome instanceof Deferred ? outcome.toPromise() : outcome;
    });
  }

  private runOnce(profile: RevisionProfile, call: () => RoundOutcome): RoundOutcome {
    let outcome: RoundOutcome;
    try {
      outcome = call();
    } catch (error) {
      if (this.waiting) return this.inputRequired(profile);
      throw error;
    }
    if (outcome instanceof Deferred) {
      const answered = new Deferred<JsonObject>();
      const settle = (value: JsonObject | Promise<JsonObject>): void => {
        if (!(value instanceof Promise)) return answered.resolve(value);
        value.then(
          (v) => answered.resolve(v),
          (e: unknown) => answered.reject(e),
        );
      };
      outcome.settleTo(
        (value) => settle(this.finished(profile, value)),
        (error: unknown) =>
          this.waiting ? settle(this.inputRequired(profile)) : answered.reject(error),
      );
      return answered;
    }
    if (outcome instanceof Promise)
      return outcome.then(
        (value) => this.finished(profile, value),
        (error: unknown) => {
          if (this.waiting) return this.inputRequired(profile);
          throw error;
        },
      );
    return this.finished(profile, outcome);
  }

  private finished(profile: RevisionProfile, value: JsonObject): JsonObject | Promise<JsonObject> {
    return this.waiting ? this.inputRequired(profile) : value;
  }

  /** The `input_required` result of this round, or an error result past the round limit. */
  private async inputRequired(profile: RevisionProfile): Promise<JsonObject> {
    const { pending, kinds, fault } = this.channelValue as RoundTripInputChannel;
    if (fault) return profile.callToolResult(toolError(fault.message)) as unknown as JsonObject;
    const round = (this.prior?.round ?? 0) + 1;
    const call = await this.call();
    if (round > this.options.maxRounds)
      return profile.callToolResult(
        toolError(
          `Tool "${call.tool}" asked for input in more than ${this.options.maxRounds} rounds; it was stopped`,
        ),
      ) as unknown as JsonObject;
    const requestState = await this.options.codec.seal({
      ...call,
      id: randomStateId(),
      round,
      expiresAt: Date.now() + this.options.stateTtlMs,
      answers: Object.fromEntries(this.answers),
      asked: kinds,
    });
    const result: JsonObject = profile.complete({
      inputRequests: Object.fromEntries(pending),
      requestState,
    });
    // Not a complete result: no cache hints, and its own type.
    result['resultType'] = 'input_required';
    return result;
  }
}

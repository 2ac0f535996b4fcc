/**
 * @module How a tool's call asks the client for input (`ctx.sample`, `ctx.elicit`,
 * `ctx.listRoots`), whatever the era. The front picks the member: a 2025 session pushes a
 * request to the client and waits for its response (server/input/pushInputChannel.ts); the 2026
 * round trip (an `input_required` result, answered in a retried request) will be a second member
 * behind the same interface, so the tool context never asks which era it is in.
 */
import type { LocalError } from '../../jsonrpc/errors.js';
import type { RequestId } from '../../jsonrpc/types.js';
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  ListRootsResult,
} from '../../protocol/types.js';

/** One thing a call may ask the client for. */
export type InputRequest =
  | { readonly kind: 'sampling'; readonly params: CreateMessageParams }
  | { readonly kind: 'elicitation'; readonly params: ElicitParams }
  | { readonly kind: 'roots' };

/** What the client answers, per kind of request. */
export interface InputAnswers {
  sampling: CreateMessageResult;
  elicitation: ElicitResult;
  roots: ListRootsResult;
}

/** The answer to `R`. */
export type InputAnswer<R extends InputRequest> = InputAnswers[R['kind']];

/** How a call running as a task reaches its client (see server/tasks/taskRuntime.ts). */
export interface TaskBinding {
  readonly taskId: string;
  /** The stream task messages go on now: a waiting `tasks/result`, if any (else the session's). */
  route(): RequestId | undefined;
  /** The handler started (true) or stopped (false) waiting on the client: `input_required`. */
  inputRequired(waiting: boolean): void;
}

/** The call on whose behalf input is asked. */
export interface InputCall {
  /** The JSON-RPC id of the call's request (what a pushed request relates to). */
  readonly requestId: RequestId;
  /** Ends the wait: the call's cancellation, joined with the handler's own signal if it gave one. */
  readonly signal: AbortSignal;
  /** How long to wait for the answer; default: the connection's request timeout. */
  readonly timeoutMs?: number | undefined;
  /** Set when the call runs as a task. */
  readonly task?: TaskBinding | undefined;
  /** The key naming the request in a round trip (`ClientRequestOptions.inputKey`), when given. */
  readonly key?: string | undefined;
  /**
   * An approval (`ctx.confirm`): on a round trip, its answer lets the work through once; the
   * state that carried it is spent.
   */
  readonly approval?: boolean | undefined;
}

/**
 * The way a call's requests for input reach the client. One channel serves every call of a
 * session (2025) or of a request (2026); what is per call travels in {@link InputCall}.
 */
export interface InputChannel {
  /**
   * Why the client cannot be asked `request` (a `capability-missing` error), or `undefined` when
   * it can: what the client declared, cut to what the revision has. The round-trip member needs
   * the same answer, since a server must not ask for kinds the client did not declare.
   */
  refusal(request: InputRequest): LocalError | undefined;
  /**
   * The client's answer to `request`; rejects with {@link refusal}'s error when the client cannot
   * be asked. A push channel resolves when the client responds. A round-trip channel will
   * resolve at once when the retried request carries the answer, and otherwise reject with a
   * signal the call pipeline turns into an `input_required` result ("answered later").
   */
  ask<R extends InputRequest>(request: R, call: InputCall): Promise<InputAnswer<R>>;
}

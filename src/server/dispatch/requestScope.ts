/**
 * @module What handlers and middleware know of the request they serve, whatever the era: the era
 * and the revision's profile, the client's capabilities, the caller, and (2025) the session. The
 * front that received the request builds it; code behind the front reads it and never asks
 * which era it is in. A 2025 session builds one scope when it negotiates and reuses it for every
 * request (no allocation per call); a 2026 request will bring its own.
 */
import type { TaskGeneration } from '../tasks/taskGeneration.js';
import type { IncomingRequestContext } from '../../jsonrpc/connection.js';
import type { Deferred } from '../../jsonrpc/deferred.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import type { Identity } from '../../jsonrpc/transport.js';
import type { Era, RevisionProfile } from '../../protocol/eras/era.js';
import type { ClientCapabilities } from '../../protocol/types.js';
import type { SessionInfo, SessionPort } from '../toolContext.js';

/** What the call pipeline answers a `tools/call` with (the handler outcome of the dispatcher). */
export type RoundOutcome = JsonObject | Promise<JsonObject> | Deferred<JsonObject>;

/**
 * A `tools/call` whose input comes by round trip (2026): run inside it, the call's answer is an
 * `input_required` result whenever the handler asked for input its request did not carry.
 */
export interface CallRound {
  run(profile: RevisionProfile, call: () => RoundOutcome): RoundOutcome;
}

/** The scope of a request behind its front. */
export interface RequestScope {
  readonly era: Era;
  /** The revision the request is served in. */
  readonly profile: RevisionProfile;
  readonly clientCapabilities: ClientCapabilities;
  /**
   * What middleware and handlers see as `session` (`SessionInfo`, a public type): the negotiated
   * session in 2025; the request's own description (its `_meta`) in 2026.
   */
  readonly session: SessionInfo;
  /**
   * How the request's handlers reach the client (notifications, requests, streams), and through
   * `port.input` the input channel its calls ask with (push in 2025, the front's choice).
   */
  readonly port: SessionPort;
  /** The caller of one request: the transport's per-message identity, else the connection's. */
  identityOf(context: IncomingRequestContext): Identity | undefined;
  /** The caller's network address, when known. */
  clientAddressOf(context: IncomingRequestContext): string | undefined;
  /**
   * Whether task-augmented calls and the task methods are offered to `identity`: the server runs
   * tasks, the revision has them, and the caller can be told apart.
   */
  tasksOffered(identity: Identity | undefined): boolean;
  /**
   * Opens the round of a `tools/call` whose input comes by round trip (reading a retry's state;
   * -32602 when it is refused). Absent where input is pushed (2025): the call runs as it is.
   */
  openCall?(params: JsonObject | undefined, context: IncomingRequestContext): CallRound;
  /**
   * How the request's calls run as tasks, when its era decides per request (2026: the tasks
   * extension); absent: 2025-11-25 tasks where the revision has them.
   */
  readonly taskGeneration?: TaskGeneration | undefined;
}

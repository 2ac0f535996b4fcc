/**
 * @module The rate limit policy of a server: which buckets and which concurrency slot one
 * `tools/call` counts against, checked in one atomic admission of the store, and the error a
 * refused call answers with.
 *
 * A call is counted against its principal: the identity's id when there is one; else the
 * client's network address (HTTP), so that opening a new session resets nothing; else the
 * process (stdio has one client). Never the session. Buckets: the global one (every caller), the
 * principal's (all tools), and the principal's for the tool (the tool's own `rateLimit`, else the
 * server's `perTool`). The concurrency cap holds a slot per running call of the principal.
 */
import { ErrorCode, RpcError } from '../../jsonrpc/errors.js';
import { MemoryRateLimitStore } from './memoryRateLimitStore.js';
import { checkRateLimitOption, type ServerRateLimitOption } from './rateLimitOptions.js';
import {
  ADMITTED,
  type Admission,
  type Admitted,
  type BucketTake,
  type RateLimitRule,
  type RateLimitStore,
  type SlotTake,
} from './rateLimitStore.js';

/**
 * Which limit refused a request (`data.limit` of the error): a call's (`global`, `principal`,
 * `tool`, `concurrency`), or a task guard's: `taskPoll` (polls of one task sent side by side
 * beyond `tasks.pollBurst`), `unknownTasks` (task requests by id of a requestor that asked for
 * too many unknown task ids, `tasks.unknownTaskLookups`); or `listens` (open
 * `subscriptions/listen` streams, the server option `listens`).
 */
export type RateLimitKind =
  'global' | 'principal' | 'tool' | 'concurrency' | 'taskPoll' | 'unknownTasks' | 'listens';

/** One call, as the policy sees it. */
export interface RateLimitCall {
  /** The caller's identity, if any (its `id` is the principal). */
  readonly identity: { readonly id: string } | undefined;
  /** The caller's network address, when known (the principal of a caller without identity). */
  readonly clientAddress: string | undefined;
  /** The tool called. */
  readonly toolName: string;
  /** The tool's own `rateLimit`: a rule, `false` (exempt from `perTool`), or undefined. */
  readonly toolRule: RateLimitRule | false | undefined;
  /**
   * How long the call may hold its concurrency slot: its deadline plus a margin (a slot of a
   * crashed instance frees itself after this). Default 600 000 ms.
   */
  readonly leaseMs?: number;
}

/** The limits of a `tools/call` (those {@link RateLimitPolicy} counts). */
type CallLimitKind = Exclude<RateLimitKind, 'taskPoll' | 'unknownTasks' | 'listens'>;

/** A call refused by a limit. */
export interface RateLimitDenial {
  readonly allowed: false;
  /** When to try again, in milliseconds: the longest wait among the limits that refused. */
  readonly retryAfterMs: number;
  /** The limit that asked for that wait. */
  readonly limit: CallLimitKind;
}

/** What {@link RateLimitPolicy.check} answers: admitted (with `release` if a slot was taken) or refused. */
export type RateLimitVerdict = Admitted | RateLimitDenial;

/** The lease of a concurrency slot when the call does not say (twice the default deadline). */
export const DEFAULT_LEASE_MS = 600_000;

/**
 * Whom a call is counted against: the authenticated principal; else the client's network address
 * (HTTP), so that opening a new session resets nothing; else the process (stdio has one client).
 */
export function rateLimitSubject(
  identity: { readonly id: string } | undefined,
  clientAddress: string | undefined,
): string {
  if (identity) return `principal:${identity.id}`;
  return clientAddress === undefined ? 'local' : `address:${clientAddress}`;
}

/**
 * The error of every request a limit refuses, calls and task guards alike:
 * {@link ErrorCode.RateLimited}, "`what`; retry in N s", `data: { retryAfterMs, limit }`
 * (Streamable HTTP answers it with status 429 and `Retry-After` in whole seconds).
 */
export function rateLimitError(
  what: string,
  refusal: { readonly retryAfterMs: number; readonly limit: RateLimitKind },
): RpcError {
  const seconds = Math.max(1, Math.ceil(refusal.retryAfterMs / 1000));
  return new RpcError(ErrorCode.RateLimited, `${what}; retry in ${seconds} s`, {
    retryAfterMs: refusal.retryAfterMs,
    limit: refusal.limit,
  });
}

/** The error a call refused by one of the call limits answers with (see {@link rateLimitError}). */
export function rateLimitedError(denial: RateLimitDenial, toolName: string): RpcError {
  const what = {
    global: 'Rate limit exceeded: the server takes no more calls for now',
    principal: 'Rate limit exceeded: too many calls from this caller',
    tool: `Rate limit exceeded for tool "${toolName.slice(0, 200)}"`,
    concurrency: 'Too many calls from this caller are running at once',
  }[denial.limit];
  return rateLimitError(what, denial);
}

/** Checks calls against a server's rate limits (one per server). */
export class RateLimitPolicy {
  /** The store counting the calls (the one configured, else one in memory). */
  private counts: RateLimitStore;
  private readonly global: BucketTake | undefined;
  private readonly perPrincipal: RateLimitRule | undefined;
  private readonly perTool: RateLimitRule | undefined;
  private readonly concurrency: { max: number; retryAfterMs: number } | undefined;

  /** The store counting the calls (the one configured, else one in memory). */
  get store(): RateLimitStore {
    return this.counts;
  }

  /** Counts in `store` from now on (a host deciding where state lives). */
  useStore(store: RateLimitStore): void {
    if (typeof store?.admit !== 'function')
      throw new TypeError('A rate limit store needs an admit() method');
    this.counts = store;
  }

  /** Checks `option` (the server's `rateLimit`); throws a RangeError naming what is wrong. */
  constructor(option?: ServerRateLimitOption) {
    const checked = checkRateLimitOption(option);
    this.counts = checked.store ?? new MemoryRateLimitStore();
    this.global = checked.global && { key: 'global', rule: checked.global };
    this.perPrincipal = checked.perPrincipal;
    this.perTool = checked.perTool;
    this.concurrency = checked.concurrentPerPrincipal;
  }

  /**
   * Admits `call` or says which limit refuses it and for how long; a refused call takes nothing
   * from any limit. Synchronous when the store is (and when no limit applies). Rejects with
   * -32603 when the store fails (Redis unreachable): the call must not run unchecked.
   */
  check(call: RateLimitCall): RateLimitVerdict | Promise<RateLimitVerdict> {
    const toolRule = call.toolRule === false ? undefined : (call.toolRule ?? this.perTool);
    if (!this.global && !this.perPrincipal && !toolRule && !this.concurrency) return ADMITTED;
    const subject = rateLimitSubject(call.identity, call.clientAddress);
    const buckets: BucketTake[] = [];
    if (this.global) buckets.push(this.global);
    if (this.perPrincipal) buckets.push({ key: `all:${subject}`, rule: this.perPrincipal });
    if (toolRule) buckets.push({ key: `tool:${call.toolName}:${subject}`, rule: toolRule });
    const slot: SlotTake | undefined = this.concurrency && {
      key: `running:${subject}`,
      max: this.concurrency.max,
      leaseMs: call.leaseMs ?? DEFAULT_LEASE_MS,
      retryAfterMs: this.concurrency.retryAfterMs,
    };
    let admission: Admission | Promise<Admission>;
    try {
      admission = this.counts.admit(slot ? { buckets, slot } : { buckets });
    } catch (error) {
      throw storeFailure(error);
    }
    if (!(admission instanceof Promise)) return this.verdict(admission, toolRule);
    return admission.then(
      (a) => this.verdict(a, toolRule),
      (error: unknown) => {
        throw storeFailure(error);
      },
    );
  }

  private verdict(admission: Admission, toolRule: RateLimitRule | undefined): RateLimitVerdict {
    if (admission.allowed) return admission;
    // The buckets went in this order, each only when its rule applies; the slot came last.
    const kinds: CallLimitKind[] = [];
    if (this.global) kinds.push('global');
    if (this.perPrincipal) kinds.push('principal');
    if (toolRule) kinds.push('tool');
    const limit = kinds[admission.refusedBy] ?? 'concurrency';
    return { allowed: false, retryAfterMs: admission.retryAfterMs, limit };
  }
}

/** A store that failed, as the error the call answers with (the cause stays on this side). */
function storeFailure(cause: unknown): RpcError {
  const error = new RpcError(
    ErrorCode.InternalError,
    'Rate limits could not be checked (the rate limit store failed); the call was not run',
  );
  error.cause = cause;
  return error;
}

/**
 * @module Running tool calls as tasks (MCP 2025-11-25): a task-augmented `tools/call` is answered
 * at once with a CreateTaskResult while the tool runs detached from the request; its outcome is
 * stored for `tasks/result`. The runner holds a lease it renews, so the tasks of a process that
 * dies are failed by any other; a cancel seen through the store (from any process) aborts the run.
 * Tasks are bounded: per requestor (unfinished tasks, counted by the store across instances), per
 * process (handlers running here), and in time (a handler is aborted when its task expires).
 */
import { Cancellation } from '../jsonrpc/cancellation.js';
import { ErrorCode, LocalError, RpcError, toRpcError } from '../jsonrpc/errors.js';
import type { Identity } from '../jsonrpc/transport.js';
import type { JsonObject, RequestId } from '../jsonrpc/types.js';
import { CallTool } from '../protocol/methods.js';
import { MemoryTaskStore } from '../tasks/memoryTaskStore.js';
import { TaskLimitError, type TaskStore, type TransitionResult } from '../tasks/taskStore.js';
import {
  isTerminal,
  MODEL_IMMEDIATE_RESPONSE,
  taskOf,
  type Task,
  type TaskOutcome,
  type TaskRecord,
} from '../tasks/taskTypes.js';
import { LookupGuard, PollGate } from './taskGuards.js';
import type { TaskBinding } from './toolContext.js';
import { MAX_TIMER_MS } from './registry/toolDefinition.js';

/** Task settings of a server. */
export interface TaskOptions {
  /** Where tasks live. Default: in memory. */
  store?: TaskStore;
  /** TTL when the client asks for none. Default 10 min. */
  defaultTtlMs?: number;
  /** The most TTL a client gets, whatever it asks. Default 1 hour. */
  maxTtlMs?: number;
  /** The polling interval suggested to clients. Default 1000 ms. */
  pollIntervalMs?: number;
  /** A runner's lease; renewed every third of it. Default 30 s. */
  leaseMs?: number;
  /** Tasks per `tasks/list` page. Default 100. */
  pageSize?: number;
  /** Send `notifications/tasks/status` on status changes. Default true. */
  statusNotifications?: boolean;
  /**
   * Unfinished (working or input_required) tasks one requestor may have at once; more are
   * refused with -32000. The requestor is the task's owner (see {@link ownerOf}).
   * Counted by the store, so with Redis it holds across every instance. Default 100.
   */
  maxTasksPerRequestor?: number;
  /**
   * Task handlers running in this process at once (every requestor); more are refused with
   * -32000. Per instance: each instance protects its own resources. Default 10 000.
   */
  maxRunningTasks?: number;
  /**
   * Polls (`tasks/get`, `tasks/result`) of one task a requestor may send at once beyond one per
   * `pollIntervalMs`. A faster poll is answered late (at most one interval), one sent side by
   * side beyond that is refused with the rate-limit error (-31429, `data: { retryAfterMs, limit:
   * 'taskPoll' }`). Per instance. Default 10.
   */
  pollBurst?: number;
  /**
   * Lookups of unknown task ids a requestor may make per window (each answered -32602 "unknown
   * task"); at the limit its task requests naming an id are refused with the rate-limit error
   * (-31429, `data: { retryAfterMs, limit: 'unknownTasks' }`) for one window and the server's
   * `onerror` hears of it once. Its own expired tasks are not unknown (see `TaskStore.expired`).
   * Per instance. Default 100 per 60 s.
   */
  unknownTaskLookups?: { limit: number; windowMs: number };
}

/** A setting that must be a positive integer (or a positive number of ms). */
function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`tasks.${name} must be a positive integer (got ${String(value)})`);
  return value;
}

/** What the runtime needs from the session a task was created on. */
export interface TaskSessionPort {
  readonly id: string;
  sendTaskStatus(task: Task): void;
}

/** One task being run by this process. */
interface Running {
  readonly cancellation: Cancellation;
  readonly session: TaskSessionPort;
  /** tasks/result requests of the creating session waiting on this task (newest last). */
  readonly waiting: RequestId[];
}

function randomRunnerId(): string {
  return `runner-${crypto.randomUUID()}`;
}

/**
 * The owner of tasks created by a caller (the spec's requestor). Authenticated: the identity's
 * id, issuer, subject and client together, the binding an HTTP session has (sessionOwner.ts), so
 * another application of the same user (same issuer and subject, another `client_id`/`azp`) is
 * another owner and sees none of the tasks. An identity that names none of issuer, subject and
 * client (an API key, an application's own identity) is `principal:<id>`, as before. Without
 * authentication: the session.
 */
export function ownerOf(sessionId: string, identity: Identity | undefined): string {
  if (!identity) return `session:${sessionId}`;
  const { id, issuer, subject, clientId } = identity;
  if (issuer === undefined && subject === undefined && clientId === undefined)
    return `principal:${id}`;
  // JSON: no id, issuer, subject and client can spell another four (nor a `principal:` owner).
  return `identity:${JSON.stringify([id, issuer ?? null, subject ?? null, clientId ?? null])}`;
}

/** Turns a stored outcome into what `tasks/result` answers (a result, or a thrown RpcError). */
export function resultOf(record: TaskRecord, relatedTask: JsonObject): JsonObject {
  const outcome = record.outcome;
  if (!outcome) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Task ${record.taskId} was ${record.status} and has no result`,
    );
  }
  if (outcome.kind === 'error') throw RpcError.fromWire(outcome.error);
  const meta = (outcome.result['_meta'] as JsonObject | undefined) ?? {};
  return { ...outcome.result, _meta: { ...meta, ...relatedTask } };
}

/** The server's task runtime. */
export class TaskRuntime {
  private currentStore: TaskStore;
  readonly runnerId = randomRunnerId();
  readonly pollIntervalMs: number;
  readonly pageSize: number;
  private readonly running = new Map<string, Running>();
  /** Tasks being created (counted with the running ones against maxRunningTasks). */
  private starting = 0;
  private readonly maxPerRequestor: number;
  private readonly maxRunning: number;
  /** Paces polls of one task by one requestor (see {@link TaskOptions.pollBurst}). */
  readonly polls: PollGate;
  /** Refuses requestors that look up many unknown task ids. */
  readonly lookups: LookupGuard;
  private readonly heartbeat: ReturnType<typeof setInterval>;
  private readonly leaseMs: number;
  private closed = false;
  /** Called when no task runs here any more (drain waits for that). */
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly options: TaskOptions,
    /** The server's error report (`onerror`). */
    readonly report: (error: unknown, what: string) => void,
  ) {
    this.currentStore = options.store ?? new MemoryTaskStore();
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.pageSize = options.pageSize ?? 100;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.maxPerRequestor = positive(options.maxTasksPerRequestor, 100, 'maxTasksPerRequestor');
    this.maxRunning = positive(options.maxRunningTasks, 10_000, 'maxRunningTasks');
    this.polls = new PollGate({
      intervalMs: this.pollIntervalMs,
      burst: positive(options.pollBurst, 10, 'pollBurst'),
    });
    const lookups = options.unknownTaskLookups;
    this.lookups = new LookupGuard(
      {
        limit: positive(lookups?.limit, 100, 'unknownTaskLookups.limit'),
        windowMs: positive(lookups?.windowMs, 60_000, 'unknownTaskLookups.windowMs'),
      },
      report,
    );
    this.heartbeat = setInterval(
      () => void this.beat(),
      Math.max(50, Math.floor(this.leaseMs / 3)),
    );
    (this.heartbeat as { unref?: () => void }).unref?.();
  }

  /** Where tasks live. */
  get store(): TaskStore {
    return this.currentStore;
  }

  /** Moves to another store before any task was started (see McpServer.useTaskStore). */
  useStore(store: TaskStore): void {
    if (this.running.size > 0) throw new Error('Tasks are running: the task store cannot change');
    this.currentStore = store;
  }

  /** The TTL a task gets: the requested one capped, or the default. */
  ttlFor(requested: number | undefined): number {
    const max = this.options.maxTtlMs ?? 3_600_000;
    return Math.min(requested ?? this.options.defaultTtlMs ?? 600_000, max);
  }

  /**
   * Creates a task and starts `run` in the background. Throws -32000 when the requestor or this
   * process is at its limit of tasks, -32603 when the task cannot be stored (no task id is handed
   * out then).
   */
  async start(options: {
    owner: string;
    session: TaskSessionPort;
    ttl: number | undefined;
    immediateResponse: string | undefined;
    run: (binding: TaskBinding, cancellation: Cancellation) => Promise<JsonObject>;
  }): Promise<JsonObject> {
    if (this.running.size + this.starting >= this.maxRunning) {
      throw new RpcError(
        ErrorCode.ServerBusy,
        `The server is running too many tasks (at most ${this.maxRunning}); retry later`,
      );
    }
    let record: TaskRecord;
    this.starting += 1;
    try {
      record = await this.store.create({
        owner: options.owner,
        method: CallTool.method,
        ttl: this.ttlFor(options.ttl),
        pollInterval: this.pollIntervalMs,
        runner: this.runnerId,
        leaseMs: this.leaseMs,
        maxActivePerOwner: this.maxPerRequestor,
      });
    } catch (error) {
      if (error instanceof TaskLimitError) {
        throw new RpcError(
          ErrorCode.ServerBusy,
          `Too many unfinished tasks: at most ${error.limit} per requestor; ` +
            'retry once one has ended (or cancel one)',
        );
      }
      this.report(error, 'task store');
      throw new RpcError(
        ErrorCode.InternalError,
        'The task could not be stored, so it was not created; try again later',
      );
    } finally {
      this.starting -= 1;
    }
    void this.runInBackground(record, options);
    const result: JsonObject = { task: taskOf(record) };
    if (options.immediateResponse !== undefined)
      result['_meta'] = { [MODEL_IMMEDIATE_RESPONSE]: options.immediateResponse };
    return result;
  }

  /** Registers a tasks/result request waiting on a task run here; returns the unregister. */
  await(taskId: string, sessionId: string, requestId: RequestId): () => void {
    const running = this.running.get(taskId);
    if (!running || running.session.id !== sessionId) return () => {};
    running.waiting.push(requestId);
    return () => {
      const i = running.waiting.lastIndexOf(requestId);
      if (i >= 0) running.waiting.splice(i, 1);
    };
  }

  /** Aborts the run of a task in this process (its status is already cancelled in the store). */
  abortLocal(taskId: string): void {
    this.running
      .get(taskId)
      ?.cancellation.cancel(new LocalError('aborted', 'The task was cancelled'));
  }

  /**
   * For a shutdown: lets the tasks running here finish for up to `graceMs`, then fails the rest
   * at once ("The server shut down before the task finished") and aborts their handlers, so no
   * task is left `working` until a lease runs out.
   */
  async drain(graceMs: number): Promise<void> {
    if (this.running.size > 0 && graceMs > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        new Promise<void>((resolve) => this.idleWaiters.push(resolve)),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs))),
      ]);
      clearTimeout(timer);
    }
    const message = 'The server shut down before the task finished';
    await Promise.all(
      [...this.running].map(async ([taskId, running]) => {
        try {
          // Refused if it ended meanwhile; either way the session hears of it from the listener.
          await this.store.transition({
            taskId,
            to: 'failed',
            statusMessage: message,
            outcome: { kind: 'error', error: { code: ErrorCode.InternalError, message } },
          });
        } catch (error) {
          this.report(error, `failing task ${taskId} at shutdown`);
        }
        running.cancellation.cancel(new LocalError('aborted', message));
      }),
    );
  }

  /** Stops the heartbeat; tasks still running here will be failed by another process's lease check. */
  close(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
  }

  private async beat(): Promise<void> {
    try {
      await this.store.heartbeat({ runner: this.runnerId, leaseMs: this.leaseMs });
      await this.store.failExpiredLeases({
        statusMessage: 'The server running this task stopped before it finished',
      });
    } catch (error) {
      this.report(error, 'task lease');
    }
  }

  private async runInBackground(
    record: TaskRecord,
    options: {
      session: TaskSessionPort;
      run: (binding: TaskBinding, cancellation: Cancellation) => Promise<JsonObject>;
    },
  ): Promise<void> {
    const taskId = record.taskId;
    const cancellation = new Cancellation();
    const running: Running = { cancellation, session: options.session, waiting: [] };
    this.running.set(taskId, running);
    const expiry = this.abortAtExpiry(record, cancellation);
    let unsubscribe: () => void = () => {};
    try {
      // Changes made in this process come with the task: the session hears of them here, before
      // any tasks/result waiting on the same change answers (its listener comes later).
      unsubscribe = await this.store.subscribe(taskId, (event) => {
        if (event.task) this.notify(running, event.task);
        if (event.status === 'cancelled')
          cancellation.cancel(new LocalError('aborted', 'The task was cancelled'));
      });
    } catch (error) {
      this.report(error, 'task subscription');
    }
    let statusChain: Promise<void> = Promise.resolve();
    let waits = 0;
    const move = (to: 'input_required' | 'working'): void => {
      statusChain = statusChain.then(async () => {
        await this.store.transition({ taskId, to });
      });
    };
    const binding: TaskBinding = {
      taskId,
      route: () => running.waiting[running.waiting.length - 1],
      inputRequired: (waiting) => {
        waits += waiting ? 1 : -1;
        if (waiting && waits === 1) move('input_required');
        if (!waiting && waits === 0) move('working');
      },
    };
    let outcome: TaskOutcome;
    try {
      const result = await options.run(binding, cancellation);
      outcome = { kind: 'result', result };
    } catch (error) {
      const rpc = toRpcError(error);
      if (!(error instanceof RpcError)) this.report(error, `task ${taskId}`);
      outcome = { kind: 'error', error: rpc.toJSON() };
    }
    await statusChain.catch(() => {});
    const failed = outcome.kind === 'error' || outcome.result['isError'] === true;
    try {
      // A task cancelled meanwhile stays cancelled: the transition is refused, nothing to do.
      await this.storeOutcome(record, failed ? 'failed' : 'completed', outcome);
    } finally {
      clearTimeout(expiry);
      this.running.delete(taskId);
      unsubscribe();
      if (this.running.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }

  /**
   * Aborts the handler once its task has expired: the record and its result are gone, nobody can
   * fetch what it would produce, and it would hold resources the task limits no longer count.
   */
  private abortAtExpiry(
    record: TaskRecord,
    cancellation: Cancellation,
  ): ReturnType<typeof setTimeout> | undefined {
    if (record.ttl === null || record.ttl > MAX_TIMER_MS) return undefined;
    const timer = setTimeout(
      () => cancellation.cancel(new LocalError('aborted', 'The task expired before it finished')),
      record.ttl,
    );
    (timer as { unref?: () => void }).unref?.();
    return timer;
  }

  /**
   * Stores a finished task's outcome. The store may be briefly unreachable (a Redis restart):
   * the outcome is kept and retried with a capped backoff while this process holds the task's
   * lease, until it is stored, the task is gone or its TTL has passed; a result computed is
   * not lost to a blip. Undefined when it could not be stored.
   */
  private async storeOutcome(
    record: TaskRecord,
    to: 'completed' | 'failed',
    outcome: TaskOutcome,
  ): Promise<TransitionResult | undefined> {
    const giveUpAt =
      record.ttl === null ? Number.POSITIVE_INFINITY : Date.parse(record.createdAt) + record.ttl;
    for (let attempt = 0; ; attempt++) {
      try {
        const statusMessage = to === 'failed' ? failureMessage(outcome) : undefined;
        return await this.store.transition({
          taskId: record.taskId,
          to,
          outcome,
          ...(statusMessage !== undefined ? { statusMessage } : {}),
        });
      } catch (error) {
        if (attempt === 0) this.report(error, `storing the outcome of task ${record.taskId}`);
        const delay = Math.min(100 * 2 ** Math.min(attempt, 5), 2000);
        if (this.closed || Date.now() + delay >= giveUpAt) return undefined;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  private notify(running: Running, record: TaskRecord): void {
    if (this.options.statusNotifications === false) return;
    running.session.sendTaskStatus(taskOf(record));
  }

  /** True when a task is still running in this process. */
  isRunningHere(taskId: string): boolean {
    return this.running.has(taskId);
  }

  /** For tasks/result: true once the record says the task is over. */
  static finished(record: TaskRecord): boolean {
    return isTerminal(record.status);
  }
}

/**
 * Why a task failed, for its `statusMessage`: the JSON-RPC error's message, or the first text of
 * an `isError` result (a handler's error, or a result too large to send), cut to 500 characters.
 */
function failureMessage(outcome: TaskOutcome): string | undefined {
  let text: unknown;
  if (outcome.kind === 'error') text = outcome.error.message;
  else {
    const content = outcome.result['content'];
    const first = Array.isArray(content)
      ? (content[0] as { text?: unknown } | undefined)
      : undefined;
    text = first?.text;
  }
  return typeof text === 'string' && text !== '' ? text.slice(0, 500) : undefined;
}

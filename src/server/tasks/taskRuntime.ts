/**
 * @module Running requests as tasks, the part every protocol generation shares: a task is
 * created in the store and its work runs detached from the request that asked for it; its
 * outcome is stored with the terminal status the generation gives it. The runner holds a lease
 * it renews, so the tasks of a process that dies are failed by any other; a cancel seen through
 * the store (from any process) aborts the run. Tasks are bounded: per requestor (unfinished
 * tasks, counted by the store across instances), per process (handlers running here), and in time
 * (a handler is aborted when its task expires). What a generation answers and sends about a task
 * is its wire view's business (eras/).
 */
import { Cancellation } from '../../jsonrpc/cancellation.js';
import { ErrorCode, LocalError, RpcError, toRpcError } from '../../jsonrpc/errors.js';
import type { JsonObject, RequestId } from '../../jsonrpc/types.js';
import { MemoryTaskStore } from '../../tasks/memoryTaskStore.js';
import type { TaskOutcome, TaskRecord, TaskSettlement } from '../../tasks/taskRecord.js';
import { isTerminal } from '../../tasks/taskStatus.js';
import { TaskLimitError, type TaskStore, type TransitionResult } from '../../tasks/taskStore.js';
import type { TaskBinding } from '../toolContext.js';
import { MAX_TIMER_MS } from '../registry/toolDefinition.js';
import { LookupGuard, PollGate } from './taskGuards.js';
import { positiveSetting as positive, type TaskOptions } from './taskOptions.js';

/** What the runtime needs from the session a task was created on. */
export interface TaskSessionPort {
  readonly id: string;
  /** A change of the task's status, told in the session's own wire shape. */
  taskChanged(record: TaskRecord): void;
}

/** What {@link TaskRuntime.start} runs, and for whom. */
export interface TaskStart {
  owner: string;
  /** The request that creates the task, e.g. `tools/call` (kept in the record). */
  method: string;
  session: TaskSessionPort;
  /** The TTL the requestor asked for, if any (capped, see {@link TaskRuntime.ttlFor}). */
  ttl: number | undefined;
  /** The work: the underlying request's result (a thrown error becomes the task's error). */
  run: (binding: TaskBinding, cancellation: Cancellation) => Promise<JsonObject>;
  /** The terminal status the outcome gives the task (the generation's rule). */
  settle: (outcome: TaskOutcome) => TaskSettlement;
  /** `extension` for a task of the 2026 tasks extension. */
  generation?: 'extension';
}

/** One task being run by this process. */
interface Running {
  readonly cancellation: Cancellation;
  readonly session: TaskSessionPort;
  /** Requests of the creating session waiting on this task (newest last): its messages' route. */
  readonly waiting: RequestId[];
}

function randomRunnerId(): string {
  return `runner-${crypto.randomUUID()}`;
}

/** The server's task runtime. */
export class TaskRuntime {
  private currentStore: TaskStore;
  readonly runnerId: string = randomRunnerId();
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
   * Creates a task and starts `run` in the background; returns the task as created. Throws
   * -32000 when the requestor or this process is at its limit of tasks, -32603 when the task
   * cannot be stored (no task id is handed out then).
   */
  async start(options: TaskStart): Promise<TaskRecord> {
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
        method: options.method,
        ttl: this.ttlFor(options.ttl),
        pollInterval: this.pollIntervalMs,
        runner: this.runnerId,
        leaseMs: this.leaseMs,
        maxActivePerOwner: this.maxPerRequestor,
        ...(options.generation !== undefined ? { generation: options.generation } : {}),
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
    return record;
  }

  /**
   * Registers a request of the creating session waiting on a task run here (2025-11-25's
   * `tasks/result`): the task's messages follow the newest such request. Returns the unregister.
   */
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

  private async runInBackground(record: TaskRecord, options: TaskStart): Promise<void> {
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
    try {
      // A task cancelled meanwhile stays cancelled: the transition is refused, nothing to do.
      await this.storeOutcome(record, options.settle(outcome), outcome);
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
    settlement: TaskSettlement,
    outcome: TaskOutcome,
  ): Promise<TransitionResult | undefined> {
    const { to, statusMessage } = settlement;
    const giveUpAt =
      record.ttl === null ? Number.POSITIVE_INFINITY : Date.parse(record.createdAt) + record.ttl;
    for (let attempt = 0; ; attempt++) {
      try {
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
    running.session.taskChanged(record);
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

/**
 * @module The default task store: in this process's memory. Atomic by construction (JavaScript
 * runs one change at a time), expiring tasks with their TTL, bounded by a cap on live tasks and,
 * per owner, on unfinished ones. The ids of expired tasks are remembered for their owner for a
 * while, a bounded number of them.
 */
import { CURSOR_MAC_LENGTH, CursorMac } from './cursorMac.js';
import { EXPIRED_IDS_KEPT_MS, newTaskRecord, TaskLimitError } from './taskStore.js';
import { TaskListeners } from './taskListeners.js';
import type { TaskRecord } from './taskRecord.js';
import { canTransition, isTerminal } from './taskStatus.js';
import type { JsonObject } from '../jsonrpc/types.js';
import type {
  CreateTaskOptions,
  ProvideInputResult,
  TaskEvent,
  TaskPage,
  TaskStore,
  TransitionOptions,
  TransitionResult,
} from './taskStore.js';

/** Options of {@link MemoryTaskStore}. */
export interface MemoryTaskStoreOptions {
  /** Most tasks held at once; creating more throws (the call then fails cleanly). Default 100 000. */
  maxTasks?: number;
  /** How often expired tasks are swept. Default 30 s. */
  sweepMs?: number;
  /**
   * Ids of expired tasks remembered for their owner (see `TaskStore.expired`), the oldest
   * forgotten first beyond it; 0 remembers none. Default 10 000.
   */
  maxExpiredIds?: number;
  /** How long an expired task's id is remembered, from its expiry. Default 1 hour. */
  expiredIdsKeptMs?: number;
}

interface Entry {
  record: TaskRecord;
  seq: number;
  expiresAt: number;
  /** Responses to the task's requests for input, until its runner takes them. */
  answers?: Map<string, unknown>;
}

/** An expired task's id, remembered for its owner until `until`. */
interface Tombstone {
  readonly owner: string;
  readonly until: number;
}

const CURSOR = new RegExp(`^tm2\\.([0-9a-z]{1,11})\\.([A-Za-z0-9_-]{${CURSOR_MAC_LENGTH}})$`);

/**
 * What callers get: their own record, so changing it does not change the store. The outcome is
 * shared: it is cloned once when stored and never changed after (a task's outcome is final), so
 * readers must treat it as read-only, as every caller in toolwire does. Cloning it on every read
 * cost 14% of the CPU of a task-augmented call.
 */
const copy = (record: TaskRecord): TaskRecord => ({ ...record });

/** Tasks in memory. */
export class MemoryTaskStore implements TaskStore {
  private readonly entries = new Map<string, Entry>();
  /** The unfinished (working, input_required) tasks of each owner, for `maxActivePerOwner`. */
  private readonly active = new Map<string, Set<Entry>>();
  private readonly listeners = new TaskListeners();
  /** Signs `tasks/list` cursors: a secret of this store object, as its positions are. */
  private readonly cursors = new CursorMac();
  /** Expired tasks' ids by id, oldest expiry first (about: an entry expires when next seen). */
  private readonly tombstones = new Map<string, Tombstone>();
  private seq = 0;
  private readonly maxTasks: number;
  private readonly maxTombstones: number;
  private readonly tombstoneMs: number;
  private readonly sweeper: ReturnType<typeof setInterval>;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.maxTasks = options.maxTasks ?? 100_000;
    this.maxTombstones = Math.max(0, Math.floor(options.maxExpiredIds ?? 10_000));
    this.tombstoneMs = Math.max(0, options.expiredIdsKeptMs ?? EXPIRED_IDS_KEPT_MS);
    this.sweeper = setInterval(() => this.sweep(Date.now()), options.sweepMs ?? 30_000);
    (this.sweeper as { unref?: () => void }).unref?.();
  }

  async create(options: CreateTaskOptions): Promise<TaskRecord> {
    const now = Date.now();
    if (this.entries.size >= this.maxTasks) this.sweep(now);
    if (this.entries.size >= this.maxTasks)
      throw new Error(`Too many tasks (${this.maxTasks}); try again later`);
    let mine = this.active.get(options.owner);
    const limit = options.maxActivePerOwner;
    if (mine && limit !== undefined && mine.size >= limit) {
      for (const entry of mine) if (entry.expiresAt <= now) this.forget(entry);
      if (mine.size >= limit) throw new TaskLimitError(limit);
    }
    const record = newTaskRecord(crypto.randomUUID(), new Date(now).toISOString(), options);
    if (options.runner !== undefined) record.leaseExpiresAt = now + (options.leaseMs ?? 30_000);
    const entry: Entry = {
      record,
      seq: ++this.seq,
      expiresAt: options.ttl === null ? Infinity : now + options.ttl,
    };
    this.entries.set(record.taskId, entry);
    // forget() may have dropped the owner's emptied set.
    mine = this.active.get(options.owner);
    if (!mine) this.active.set(options.owner, (mine = new Set()));
    mine.add(entry);
    return copy(record);
  }

  async get(options: { taskId: string; owner: string }): Promise<TaskRecord | undefined> {
    const entry = this.live(options.taskId);
    return entry && entry.record.owner === options.owner ? copy(entry.record) : undefined;
  }

  async expired(options: { taskId: string; owner: string }): Promise<boolean> {
    // A task past its TTL that no sweep has dropped yet is dropped now, and remembered.
    if (this.live(options.taskId)) return false;
    const tombstone = this.tombstones.get(options.taskId);
    if (!tombstone) return false;
    if (tombstone.until <= Date.now()) {
      this.tombstones.delete(options.taskId);
      return false;
    }
    return tombstone.owner === options.owner;
  }

  async list(options: { owner: string; cursor?: string; limit: number }): Promise<TaskPage> {
    const before =
      options.cursor === undefined ? Infinity : await this.seqOf(options.owner, options.cursor);
    const now = Date.now();
    const mine = [...this.entries.values()]
      .filter((e) => e.record.owner === options.owner && e.seq < before && e.expiresAt > now)
      .sort((a, b) => b.seq - a.seq);
    const page = mine.slice(0, options.limit);
    const last = page[page.length - 1];
    return {
      tasks: page.map((e) => copy(e.record)),
      ...(mine.length > options.limit && last
        ? { nextCursor: await this.cursorOf(options.owner, last.seq) }
        : {}),
    };
  }

  /** Encodes a listing position for `owner`. */
  private async cursorOf(owner: string, seq: number): Promise<string> {
    const position = seq.toString(36);
    return `tm2.${position}.${await this.cursors.sign(owner, position)}`;
  }

  /** The position a cursor names; a RangeError unless this store issued it to `owner`. */
  private async seqOf(owner: string, cursor: string): Promise<number> {
    const m = CURSOR.exec(cursor);
    if (!m?.[1] || !m[2] || !(await this.cursors.verify(owner, m[1], m[2])))
      throw new RangeError('Invalid cursor');
    return parseInt(m[1], 36);
  }

  async transition(options: TransitionOptions): Promise<TransitionResult> {
    const entry = this.live(options.taskId);
    if (!entry || (options.owner !== undefined && entry.record.owner !== options.owner))
      return { ok: false, reason: 'not-found' };
    const record = entry.record;
    if (!canTransition(record.status, options.to))
      return { ok: false, reason: 'invalid-transition', task: copy(record) };
    // A new object rather than `delete`: a record that lost a property turns into a slow
    // dictionary-mode object, and every later copy of it pays for that.
    const { statusMessage: _message, leaseExpiresAt, inputRequests, ...kept } = record;
    const next: TaskRecord = {
      ...kept,
      status: options.to,
      lastUpdatedAt: new Date().toISOString(),
    };
    if (options.statusMessage !== undefined) next.statusMessage = options.statusMessage;
    if (options.outcome !== undefined) next.outcome = structuredClone(options.outcome);
    if (!isTerminal(options.to) && leaseExpiresAt !== undefined)
      next.leaseExpiresAt = leaseExpiresAt;
    // An ended task waits on nothing.
    if (!isTerminal(options.to) && inputRequests !== undefined) next.inputRequests = inputRequests;
    else delete entry.answers;
    entry.record = next;
    if (isTerminal(next.status)) this.finish(entry);
    this.listeners.emit({ taskId: next.taskId, status: next.status, task: copy(next) });
    return { ok: true, task: copy(next) };
  }

  async requestInput(options: {
    taskId: string;
    requests: Record<string, JsonObject>;
  }): Promise<TransitionResult> {
    const entry = this.live(options.taskId);
    if (!entry) return { ok: false, reason: 'not-found' };
    const record = entry.record;
    if (isTerminal(record.status))
      return { ok: false, reason: 'invalid-transition', task: copy(record) };
    const next: TaskRecord = {
      ...record,
      status: 'input_required',
      lastUpdatedAt: new Date().toISOString(),
      inputRequests: { ...record.inputRequests, ...structuredClone(options.requests) },
    };
    entry.record = next;
    this.listeners.emit({ taskId: next.taskId, status: next.status, task: copy(next) });
    return { ok: true, task: copy(next) };
  }

  async provideInput(options: {
    taskId: string;
    owner: string;
    responses: Record<string, unknown>;
  }): Promise<ProvideInputResult> {
    const entry = this.live(options.taskId);
    if (!entry || entry.record.owner !== options.owner) return { ok: false, reason: 'not-found' };
    const record = entry.record;
    const outstanding = record.inputRequests;
    const accepted = Object.keys(options.responses).filter(
      (key) => outstanding !== undefined && Object.hasOwn(outstanding, key),
    );
    if (accepted.length === 0 || isTerminal(record.status))
      return { ok: true, accepted: [], task: copy(record) };
    const left: Record<string, JsonObject> = { ...outstanding };
    const answers = (entry.answers ??= new Map());
    for (const key of accepted) {
      delete left[key];
      answers.set(key, structuredClone(options.responses[key]));
    }
    const { inputRequests: _answered, ...kept } = record;
    const next: TaskRecord = { ...kept, lastUpdatedAt: new Date().toISOString() };
    if (Object.keys(left).length > 0) next.inputRequests = left;
    else if (next.status === 'input_required') next.status = 'working';
    entry.record = next;
    this.listeners.emit({ taskId: next.taskId, status: next.status, task: copy(next) });
    return { ok: true, accepted, task: copy(next) };
  }

  async takeInput(options: {
    taskId: string;
    keys: readonly string[];
  }): Promise<Record<string, unknown>> {
    const answers = this.entries.get(options.taskId)?.answers;
    const taken: Record<string, unknown> = {};
    if (!answers) return taken;
    for (const key of options.keys) {
      if (!answers.has(key)) continue;
      taken[key] = answers.get(key);
      answers.delete(key);
    }
    return taken;
  }

  async heartbeat(options: { runner: string; leaseMs: number }): Promise<void> {
    const until = Date.now() + options.leaseMs;
    for (const { record } of this.entries.values()) {
      if (record.runner === options.runner && !isTerminal(record.status))
        record.leaseExpiresAt = until;
    }
  }

  async failExpiredLeases(options: { statusMessage: string }): Promise<TaskRecord[]> {
    const now = Date.now();
    const failed: TaskRecord[] = [];
    for (const { record } of this.entries.values()) {
      if (
        isTerminal(record.status) ||
        record.leaseExpiresAt === undefined ||
        record.leaseExpiresAt > now
      )
        continue;
      const result = await this.transition({
        taskId: record.taskId,
        to: 'failed',
        statusMessage: options.statusMessage,
        outcome: { kind: 'error', error: { code: -32603, message: options.statusMessage } },
      });
      if (result.ok) failed.push(result.task);
    }
    return failed;
  }

  async subscribe(taskId: string, listener: (event: TaskEvent) => void): Promise<() => void> {
    return this.listeners.add(taskId, listener);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.listeners.clear();
  }

  /** Number of tasks held (expired ones included until swept). */
  get size(): number {
    return this.entries.size;
  }

  private live(taskId: string): Entry | undefined {
    const entry = this.entries.get(taskId);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.forget(entry);
      return undefined;
    }
    return entry;
  }

  /**
   * Drops an entry (expired) and its place among its owner's unfinished tasks; its id is
   * remembered for its owner (see {@link expired}).
   */
  private forget(entry: Entry): void {
    this.entries.delete(entry.record.taskId);
    this.finish(entry);
    if (this.maxTombstones === 0 || this.tombstoneMs === 0) return;
    if (this.tombstones.size >= this.maxTombstones) {
      const oldest = this.tombstones.keys().next();
      if (!oldest.done) this.tombstones.delete(oldest.value);
    }
    this.tombstones.set(entry.record.taskId, {
      owner: entry.record.owner,
      until: entry.expiresAt + this.tombstoneMs,
    });
  }

  /** The task no longer counts against its owner's `maxActivePerOwner`. */
  private finish(entry: Entry): void {
    const owner = entry.record.owner;
    const mine = this.active.get(owner);
    if (mine?.delete(entry) && mine.size === 0) this.active.delete(owner);
  }

  private sweep(now: number): void {
    for (const entry of this.entries.values()) if (entry.expiresAt <= now) this.forget(entry);
    for (const [taskId, tombstone] of this.tombstones)
      if (tombstone.until <= now) this.tombstones.delete(taskId);
  }
}

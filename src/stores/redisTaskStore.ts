/**
 * @module Tasks in Redis, shared by every instance of a server: status changes are Lua
 * compare-and-sets (atomic across processes), every key expires with its task, tasks are bound
 * to their owner, runners hold leases renewed by heartbeats, and status changes reach every
 * process over pub/sub. Runs the same contract suite as the in-memory store.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { CURSOR_MAC_LENGTH, CursorMac } from '../tasks/cursorMac.js';
import { EXPIRED_IDS_KEPT_MS, newTaskRecord, TaskLimitError } from '../tasks/taskStore.js';
import type { JsonObject } from '../jsonrpc/types.js';
import type {
  CreateTaskOptions,
  ProvideInputResult,
  TaskEvent,
  TaskPage,
  TaskStore,
  TransitionOptions,
  TransitionResult,
} from '../tasks/taskStore.js';
import type { TaskOutcome, TaskRecord } from '../tasks/taskRecord.js';
import type { TaskStatus } from '../tasks/taskStatus.js';
import { TaskListeners } from '../tasks/taskListeners.js';
import { RedisChannels } from './redisChannels.js';
import {
  closeConnection,
  openConnection,
  type RedisConnectionOptions,
  type StoreConnection,
} from './redisConnection.js';
import {
  CREATE,
  EXPIRED,
  FAIL_EXPIRED,
  HEARTBEAT,
  LIST,
  PROVIDE_INPUT,
  REQUEST_INPUT,
  TAKE_INPUT,
  TRANSITION,
} from './redisTaskScripts.js';

/** Options of {@link RedisTaskStore.connect}. */
export type RedisTaskStoreOptions = RedisConnectionOptions;

/** Ids of expired tasks remembered per owner (see `TaskStore.expired`); the oldest go first. */
const MAX_EXPIRED_IDS_PER_OWNER = 1000;

/** What a task id of this store looks like (anything else is not one of its tasks). */
const TASK_ID = /^[0-9a-f-]{36}$/;

const STATUSES = new Set<string>(['working', 'input_required', 'completed', 'failed', 'cancelled']);

/** Fields of a task hash, as HGETALL returns them. */
function fieldsOf(flat: unknown): Map<string, string> {
  const fields = new Map<string, string>();
  if (!Array.isArray(flat)) return fields;
  for (let i = 0; i + 1 < flat.length; i += 2) fields.set(String(flat[i]), String(flat[i + 1]));
  return fields;
}

const iso = (ms: string | undefined): string => new Date(Number(ms)).toISOString();

/** Rebuilds a record from its hash; undefined when the hash is not a task. */
function recordOf(taskId: string, fields: Map<string, string>): TaskRecord | undefined {
  const status = fields.get('status');
  const owner = fields.get('owner');
  if (status === undefined || !STATUSES.has(status) || owner === undefined) return undefined;
  const ttl = fields.get('ttl');
  const record: TaskRecord = {
    taskId,
    status: status as TaskStatus,
    createdAt: iso(fields.get('created')),
    lastUpdatedAt: iso(fields.get('updated')),
    ttl: ttl === undefined || ttl === '' ? null : Number(ttl),
    owner,
    method: fields.get('method') ?? '',
  };
  const poll = fields.get('poll');
  if (poll !== undefined) record.pollInterval = Number(poll);
  const message = fields.get('msg');
  if (message !== undefined) record.statusMessage = message;
  const runner = fields.get('runner');
  if (runner !== undefined) record.runner = runner;
  const outcome = fields.get('outcome');
  if (outcome !== undefined) record.outcome = JSON.parse(outcome) as TaskOutcome;
  if (fields.get('gen') === 'extension') record.generation = 'extension';
  let requests: Record<string, JsonObject> | undefined;
  for (const [name, value] of fields)
    if (name.startsWith('rq:')) (requests ??= {})[name.slice(3)] = JSON.parse(value) as JsonObject;
  if (requests !== undefined) record.inputRequests = requests;
  return record;
}

/** The id a stored hash belongs to is not in the hash: scripts that return hashes return ids too. */
function taskIdFromFields(fields: Map<string, string>): string {
  return fields.get('id') ?? '';
}

/**
 * A `tasks/list` cursor: the listing score and id of the last task on the page, and their MAC
 * under the secret every instance reads from Redis (so a cursor from one instance works on all).
 */
const CURSOR = new RegExp(
  `^tr2\\.((\\d{1,17})\\.([0-9a-f-]{36}))\\.([A-Za-z0-9_-]{${CURSOR_MAC_LENGTH}})$`,
);

/** A cursor's parts, its MAC not yet checked (see {@link RedisTaskStore.list}). */
function parseCursor(cursor: string): {
  position: string;
  score: string;
  taskId: string;
  mac: string;
} {
  const m = CURSOR.exec(cursor);
  if (!m?.[1] || !m[2] || !m[3] || !m[4]) throw new RangeError('Invalid cursor');
  return { position: m[1], score: m[2], taskId: m[3], mac: m[4] };
}

/**
 * The error of a creation Redis refused for want of memory (over `maxmemory`, with `noeviction`):
 * the create script's first write is refused, so nothing of the task was stored. Other errors
 * pass as they are.
 */
function creationError(error: unknown): unknown {
  if (!(error instanceof Error) || !/^OOM\b/.test(error.message)) return error;
  return new Error(
    'Redis is out of memory (used memory over maxmemory): the task was not stored. ' +
      'Give Redis more memory (maxmemory) or free some',
    { cause: error },
  );
}

/** The Redis task store. Create it with {@link RedisTaskStore.connect}. */
export class RedisTaskStore implements TaskStore {
  private readonly listeners = new TaskListeners();
  private listening: Promise<() => void> | undefined;
  private readonly channel: string;
  /** Tags the changes this store object announces, so it skips their echo. */
  private readonly origin = crypto.randomUUID();
  private closed = false;
  /** The MAC of cursors under the last secret Redis gave (it changes only if the key was lost). */
  private cursors: CursorMac | undefined;

  /**
   * A store over a connection someone else manages (see `createRedisScaleOut`); `owned` says
   * whether {@link close} closes the connection and the channels.
   */
  constructor(
    private readonly connection: StoreConnection,
    private readonly channels: RedisChannels,
    private readonly owned = false,
  ) {
    this.channel = `${connection.prefix}task-events`;
  }

  /** Connects to Redis (importing `ioredis`, an optional peer dependency). */
  static async connect(options: RedisTaskStoreOptions = {}): Promise<RedisTaskStore> {
    const connection = await openConnection(options);
    return new RedisTaskStore(connection, new RedisChannels(connection), true);
  }

  private get redis(): Redis {
    return this.connection.redis;
  }

  private key(kind: 'task' | 'owner' | 'active' | 'runner' | 'expired', id: string): string {
    return `${this.connection.prefix}${kind}:${id}`;
  }

  async create(options: CreateTaskOptions): Promise<TaskRecord> {
    const taskId = crypto.randomUUID();
    const runner = options.runner ?? '';
    const reply = (await CREATE.run(
      this.redis,
      [
        this.key('task', taskId),
        this.key('owner', options.owner),
        this.key('runner', runner),
        `${this.connection.prefix}runners`,
        this.key('active', options.owner),
        this.key('expired', options.owner),
      ],
      [
        taskId,
        options.owner,
        options.method,
        options.ttl === null ? '' : String(Math.max(1, Math.floor(options.ttl))),
        options.pollInterval === undefined ? '' : String(options.pollInterval),
        runner,
        String(options.leaseMs ?? 30_000),
        options.maxActivePerOwner === undefined ? '' : String(options.maxActivePerOwner),
        String(EXPIRED_IDS_KEPT_MS),
        String(MAX_EXPIRED_IDS_PER_OWNER),
        options.generation ?? '',
      ],
    ).catch((error: unknown) => {
      throw creationError(error);
    })) as [string, string];
    if (reply[0] === 'limit') throw new TaskLimitError(options.maxActivePerOwner ?? 0);
    return newTaskRecord(taskId, iso(reply[0]), options);
  }

  async get(options: { taskId: string; owner: string }): Promise<TaskRecord | undefined> {
    if (!TASK_ID.test(options.taskId)) return undefined;
    const hash = await this.redis.hgetall(this.key('task', options.taskId));
    const fields = new Map(Object.entries(hash));
    const record = recordOf(options.taskId, fields);
    return record?.owner === options.owner ? record : undefined;
  }

  async expired(options: { taskId: string; owner: string }): Promise<boolean> {
    if (!TASK_ID.test(options.taskId)) return false;
    const reply = await EXPIRED.run(
      this.redis,
      [this.key('task', options.taskId), this.key('expired', options.owner)],
      [options.taskId],
    );
    return reply === 1;
  }

  async list(options: { owner: string; cursor?: string; limit: number }): Promise<TaskPage> {
    const from = options.cursor === undefined ? undefined : parseCursor(options.cursor);
    const limit = Math.max(1, Math.floor(options.limit));
    const reply = (await LIST.run(
      this.redis,
      [this.key('owner', options.owner), `${this.connection.prefix}cursor-secret`],
      [
        this.connection.prefix,
        options.owner,
        from?.score ?? '+inf',
        from?.taskId ?? '',
        limit,
        randomBytes(32).toString('base64url'),
      ],
    )) as unknown[];
    const secret = String(reply[0]);
    if (this.cursors?.secret !== secret) this.cursors = new CursorMac(secret);
    const cursors = this.cursors;
    if (from && !(await cursors.verify(options.owner, from.position, from.mac)))
      throw new RangeError('Invalid cursor');
    const rows = reply.slice(1).map((flat) => fieldsOf(flat));
    const tasks: TaskRecord[] = [];
    let last: string | undefined;
    for (const fields of rows.slice(0, limit)) {
      const id = taskIdFromFields(fields);
      const record = recordOf(id, fields);
      if (!record) continue;
      tasks.push(record);
      last = `${fields.get('score') ?? '0'}.${id}`;
    }
    if (rows.length <= limit || last === undefined) return { tasks };
    return { tasks, nextCursor: `tr2.${last}.${await cursors.sign(options.owner, last)}` };
  }

  async transition(options: TransitionOptions): Promise<TransitionResult> {
    if (!TASK_ID.test(options.taskId)) return { ok: false, reason: 'not-found' };
    const reply = (await TRANSITION.run(
      this.redis,
      [this.key('task', options.taskId)],
      [
        this.connection.prefix,
        options.taskId,
        options.owner ?? '',
        options.to,
        options.statusMessage ?? '',
        options.statusMessage === undefined ? '0' : '1',
        options.outcome === undefined ? '' : JSON.stringify(options.outcome),
        this.channel,
        this.origin,
      ],
    )) as [string, unknown?];
    return this.changed(options.taskId, reply[0], reply[1]);
  }

  async requestInput(options: {
    taskId: string;
    requests: Record<string, JsonObject>;
  }): Promise<TransitionResult> {
    if (!TASK_ID.test(options.taskId)) return { ok: false, reason: 'not-found' };
    const pairs = Object.entries(options.requests).flatMap(([k, v]) => [k, JSON.stringify(v)]);
    const reply = (await REQUEST_INPUT.run(
      this.redis,
      [this.key('task', options.taskId)],
      [options.taskId, this.channel, this.origin, ...pairs],
    )) as [string, unknown?];
    return this.changed(options.taskId, reply[0], reply[1]);
  }

  async provideInput(options: {
    taskId: string;
    owner: string;
    responses: Record<string, unknown>;
  }): Promise<ProvideInputResult> {
    if (!TASK_ID.test(options.taskId)) return { ok: false, reason: 'not-found' };
    const pairs = Object.entries(options.responses).flatMap(([k, v]) => [k, JSON.stringify(v)]);
    const reply = (await PROVIDE_INPUT.run(
      this.redis,
      [this.key('task', options.taskId)],
      [options.taskId, options.owner, this.channel, this.origin, ...pairs],
    )) as [string, string[]?, unknown?];
    const record = reply[0] === 'ok' ? recordOf(options.taskId, fieldsOf(reply[2])) : undefined;
    if (!record) return { ok: false, reason: 'not-found' };
    const accepted = (reply[1] ?? []).map(String);
    if (accepted.length > 0)
      this.listeners.emit({ taskId: record.taskId, status: record.status, task: record });
    return { ok: true, accepted, task: record };
  }

  async takeInput(options: {
    taskId: string;
    keys: readonly string[];
  }): Promise<Record<string, unknown>> {
    const taken: Record<string, unknown> = {};
    if (!TASK_ID.test(options.taskId) || options.keys.length === 0) return taken;
    const reply = (await TAKE_INPUT.run(
      this.redis,
      [this.key('task', options.taskId)],
      [...options.keys],
    )) as string[];
    for (let i = 0; i + 1 < reply.length; i += 2)
      taken[String(reply[i])] = JSON.parse(String(reply[i + 1])) as unknown;
    return taken;
  }

  /** The result of a script that changed a task (or refused to), told to listeners here. */
  private changed(taskId: string, verdict: string, flat: unknown): TransitionResult {
    if (verdict === 'not-found') return { ok: false, reason: 'not-found' };
    const record = recordOf(taskId, fieldsOf(flat));
    if (!record) return { ok: false, reason: 'not-found' };
    if (verdict !== 'ok') return { ok: false, reason: 'invalid-transition', task: record };
    // Listeners here learn of it now, not a pub/sub round trip later (the echo is skipped).
    this.listeners.emit({ taskId: record.taskId, status: record.status, task: record });
    return { ok: true, task: record };
  }

  async heartbeat(options: { runner: string; leaseMs: number }): Promise<void> {
    await HEARTBEAT.run(
      this.redis,
      [`${this.connection.prefix}runners`],
      [options.runner, String(options.leaseMs)],
    );
  }

  async failExpiredLeases(options: { statusMessage: string }): Promise<TaskRecord[]> {
    const outcome: TaskOutcome = {
      kind: 'error',
      error: { code: -32603, message: options.statusMessage },
    };
    const reply = (await FAIL_EXPIRED.run(
      this.redis,
      [`${this.connection.prefix}runners`],
      [
        this.connection.prefix,
        options.statusMessage,
        JSON.stringify(outcome),
        this.channel,
        100,
        this.origin,
      ],
    )) as unknown[];
    const failed: TaskRecord[] = [];
    for (const flat of reply) {
      const fields = fieldsOf(flat);
      const record = recordOf(taskIdFromFields(fields), fields);
      if (!record) continue;
      failed.push(record);
      this.listeners.emit({ taskId: record.taskId, status: record.status, task: record });
    }
    return failed;
  }

  async subscribe(taskId: string, listener: (event: TaskEvent) => void): Promise<() => void> {
    await this.ensureSubscribed();
    return this.listeners.add(taskId, listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    const stop = await this.listening?.catch(() => undefined);
    stop?.();
    if (!this.owned) return;
    this.channels.close();
    await closeConnection(this.connection);
  }

  private ensureSubscribed(): Promise<() => void> {
    this.listening ??= this.channels.listen(this.channel, (payload) => {
      const [taskId = '', status = '', origin] = payload.split(' ');
      if (origin === this.origin) return; // made here: dispatched already, with the task
      if (STATUSES.has(status)) this.listeners.emit({ taskId, status: status as TaskStatus });
    });
    // A failed subscription is retried by the next subscribe() instead of failing forever.
    this.listening.catch(() => (this.listening = undefined));
    return this.listening;
  }
}

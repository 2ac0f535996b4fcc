/**
 * @module The TaskStore contract: every store runs this same suite (STYLE.md §2.9), once for each
 * task generation (2025-11-25 tasks, and the 2026 tasks extension's), since one store keeps both.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  TaskLimitError,
  type CreateTaskOptions,
  type TaskStore,
} from '../../src/tasks/taskStore.js';
import type { TaskEvent } from '../../src/tasks/taskStore.js';
import { inputContract } from './taskStoreInputContract.js';

/** The generations a store keeps: 2025-11-25 tasks (no mark) and extension tasks. */
const GENERATIONS = [undefined, 'extension'] as const;

/** `store`, with every task it creates made of `generation`. */
function ofGeneration(store: TaskStore, generation: 'extension' | undefined): TaskStore {
  if (generation === undefined) return store;
  return new Proxy(store, {
    get(target, property) {
      if (property === 'create')
        return (options: CreateTaskOptions) => target.create({ ...options, generation });
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Registers the contract tests for a store made by `make` (fresh and empty for each test). */
export function taskStoreContract(name: string, make: () => Promise<TaskStore>): void {
  for (const generation of GENERATIONS) {
    const label = generation === undefined ? '2025-11-25 tasks' : 'extension tasks';
    generationContract(
      `${name}, ${label}`,
      async () => ofGeneration(await make(), generation),
      generation,
    );
    inputContract(`${name}, ${label}`, async () => ofGeneration(await make(), generation));
  }
}

function generationContract(
  name: string,
  make: () => Promise<TaskStore>,
  generation: 'extension' | undefined,
): void {
  describe(`TaskStore contract: ${name}`, () => {
    let store: TaskStore;
    beforeEach(async () => {
      store = await make();
    });
    afterEach(async () => {
      await store.close();
    });

    it('creates tasks in working with unique random ids and ISO timestamps', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 200; i++) {
        const task = await store.create({
          owner: 'alice',
          method: 'tools/call',
          ttl: 60_000,
          pollInterval: 500,
        });
        ids.add(task.taskId);
        expect(task).toMatchObject({
          status: 'working',
          ttl: 60_000,
          pollInterval: 500,
          owner: 'alice',
          method: 'tools/call',
        });
        expect(new Date(task.createdAt).toISOString()).toBe(task.createdAt);
        expect(task.lastUpdatedAt).toBe(task.createdAt);
        expect(task.generation).toBe(generation);
      }
      const [first] = ids;
      expect((await store.get({ taskId: first ?? '', owner: 'alice' }))?.generation).toBe(
        generation,
      );
      expect(ids.size).toBe(200);
      for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('shows a task only to its owner; another owner sees "not found", like a missing task', async () => {
      const task = await store.create({ owner: 'alice', method: 'tools/call', ttl: 60_000 });
      expect(await store.get({ taskId: task.taskId, owner: 'alice' })).toMatchObject({
        taskId: task.taskId,
      });
      expect(await store.get({ taskId: task.taskId, owner: 'mallory' })).toBeUndefined();
      expect(await store.get({ taskId: 'no-such-task', owner: 'alice' })).toBeUndefined();
      expect(
        await store.transition({ taskId: task.taskId, owner: 'mallory', to: 'cancelled' }),
      ).toEqual({ ok: false, reason: 'not-found' });
      expect((await store.list({ owner: 'mallory', limit: 10 })).tasks).toEqual([]);
    });

    it('compares owners whole: owners differing only by a client are apart, in every method and limit', async () => {
      // Owners as the server makes them for OAuth callers: JSON with spaces, colons and quotes.
      const owner = (client: string) =>
        `identity:${JSON.stringify(['https://issuer.example alice', 'https://issuer.example', 'alice', client])}`;
      const [one, two] = [owner('app-one'), owner('app-two')];
      const task = await store.create({
        owner: one,
        method: 'tools/call',
        ttl: 60_000,
        maxActivePerOwner: 1,
      });
      // app-two's limit is its own: app-one's unfinished task does not count against it.
      await store.create({ owner: two, method: 'tools/call', ttl: 60_000, maxActivePerOwner: 1 });
      await expect(
        store.create({ owner: one, method: 'tools/call', ttl: 60_000, maxActivePerOwner: 1 }),
      ).rejects.toBeInstanceOf(TaskLimitError);
      for (const other of [two, 'identity:', one.slice(0, -2), `${one} `]) {
        expect(await store.get({ taskId: task.taskId, owner: other })).toBeUndefined();
        expect(
          (await store.list({ owner: other, limit: 10 })).tasks.map((t) => t.taskId),
        ).not.toContain(task.taskId);
        expect(
          await store.transition({ taskId: task.taskId, owner: other, to: 'cancelled' }),
        ).toEqual({ ok: false, reason: 'not-found' });
      }
      expect((await store.list({ owner: one, limit: 10 })).tasks.map((t) => t.taskId)).toEqual([
        task.taskId,
      ]);
    });

    it('allows only the spec transitions; terminal statuses are final', async () => {
      const task = await store.create({ owner: 'a', method: 'tools/call', ttl: 60_000 });
      const to = (status: Parameters<TaskStore['transition']>[0]['to']) =>
        store.transition({ taskId: task.taskId, to: status });
      expect((await to('working')).ok).toBe(false);
      expect(await to('input_required')).toMatchObject({
        ok: true,
        task: { status: 'input_required' },
      });
      expect(await to('working')).toMatchObject({ ok: true, task: { status: 'working' } });
      const done = await store.transition({
        taskId: task.taskId,
        to: 'completed',
        statusMessage: 'done',
        outcome: { kind: 'result', result: { content: [] } },
      });
      expect(done).toMatchObject({
        ok: true,
        task: {
          status: 'completed',
          statusMessage: 'done',
          outcome: { kind: 'result', result: { content: [] } },
        },
      });
      for (const next of [
        'working',
        'input_required',
        'failed',
        'cancelled',
        'completed',
      ] as const) {
        expect(await to(next)).toMatchObject({
          ok: false,
          reason: 'invalid-transition',
          task: { status: 'completed' },
        });
      }
      expect((await store.get({ taskId: task.taskId, owner: 'a' }))?.lastUpdatedAt).toBeDefined();
    });

    it('a cancel racing a completion ends in exactly one terminal status', async () => {
      for (let round = 0; round < 10; round++) {
        const task = await store.create({ owner: 'a', method: 'tools/call', ttl: 60_000 });
        const attempts = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            store.transition({
              taskId: task.taskId,
              to: i % 2 === 0 ? 'completed' : 'cancelled',
              outcome: { kind: 'result', result: { n: i } },
            }),
          ),
        );
        const winners = attempts.filter((a) => a.ok);
        expect(winners).toHaveLength(1);
        const final = await store.get({ taskId: task.taskId, owner: 'a' });
        expect(final?.status).toBe(winners[0]?.ok ? winners[0].task.status : undefined);
      }
    });

    it('expires a task with its TTL', async () => {
      const task = await store.create({ owner: 'a', method: 'tools/call', ttl: 150 });
      const kept = await store.create({ owner: 'a', method: 'tools/call', ttl: 60_000 });
      await sleep(400);
      expect(await store.get({ taskId: task.taskId, owner: 'a' })).toBeUndefined();
      expect(await store.transition({ taskId: task.taskId, to: 'cancelled' })).toEqual({
        ok: false,
        reason: 'not-found',
      });
      expect((await store.list({ owner: 'a', limit: 10 })).tasks.map((t) => t.taskId)).toEqual([
        kept.taskId,
      ]);
    });

    it("remembers an expired task's id for its owner only", async () => {
      const expired = store.expired?.bind(store);
      if (!expired) throw new Error('the store does not implement expired()');
      const read = await store.create({ owner: 'a', method: 'tools/call', ttl: 100 });
      const unread = await store.create({ owner: 'a', method: 'tools/call', ttl: 100 });
      const live = await store.create({ owner: 'a', method: 'tools/call', ttl: 60_000 });
      const forever = await store.create({ owner: 'a', method: 'tools/call', ttl: null });
      expect(await expired({ taskId: read.taskId, owner: 'a' })).toBe(false); // not yet
      await sleep(300);
      expect(await store.get({ taskId: read.taskId, owner: 'a' })).toBeUndefined();
      // Whether the expired task was looked up (and dropped) before or not.
      for (const task of [read, unread]) {
        expect(await expired({ taskId: task.taskId, owner: 'a' })).toBe(true);
        expect(await expired({ taskId: task.taskId, owner: 'b' })).toBe(false);
      }
      for (const task of [live, forever])
        expect(await expired({ taskId: task.taskId, owner: 'a' })).toBe(false);
      for (const taskId of [crypto.randomUUID(), 'not-a-uuid', ''])
        expect(await expired({ taskId, owner: 'a' })).toBe(false);
    });

    it("lists the owner's tasks newest first, page by page, without repeats", async () => {
      const created: string[] = [];
      for (let i = 0; i < 7; i++)
        created.push(
          (await store.create({ owner: 'a', method: 'tools/call', ttl: 60_000 })).taskId,
        );
      await store.create({ owner: 'b', method: 'tools/call', ttl: 60_000 });
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 10; pages++) {
        const page = await store.list({
          owner: 'a',
          limit: 3,
          ...(cursor !== undefined ? { cursor } : {}),
        });
        seen.push(...page.tasks.map((t) => t.taskId));
        cursor = page.nextCursor;
        if (cursor === undefined) break;
      }
      expect(seen).toEqual([...created].reverse());
      await expect(
        store.list({ owner: 'a', limit: 3, cursor: 'not-a-cursor' }),
      ).rejects.toBeInstanceOf(RangeError);
    });

    it('fails the tasks of a runner whose lease expired, and keeps those it heartbeats', async () => {
      const dead = await store.create({
        owner: 'a',
        method: 'tools/call',
        ttl: 60_000,
        runner: 'dead',
        leaseMs: 100,
      });
      const alive = await store.create({
        owner: 'a',
        method: 'tools/call',
        ttl: 60_000,
        runner: 'alive',
        leaseMs: 100,
      });
      for (let i = 0; i < 4; i++) {
        await sleep(60);
        await store.heartbeat({ runner: 'alive', leaseMs: 100 });
      }
      const failed = await store.failExpiredLeases({
        statusMessage: 'The server running this task stopped',
      });
      expect(failed.map((t) => t.taskId)).toEqual([dead.taskId]);
      expect(await store.get({ taskId: dead.taskId, owner: 'a' })).toMatchObject({
        status: 'failed',
        statusMessage: 'The server running this task stopped',
        outcome: { kind: 'error', error: { code: -32603 } },
      });
      expect((await store.get({ taskId: alive.taskId, owner: 'a' }))?.status).toBe('working');
    });

    it('tells subscribers about status changes until they unsubscribe', async () => {
      const task = await store.create({ owner: 'a', method: 'tools/call', ttl: 60_000 });
      const events: TaskEvent[] = [];
      const stop = await store.subscribe(task.taskId, (e) => events.push(e));
      await store.transition({ taskId: task.taskId, to: 'input_required' });
      await store.transition({ taskId: task.taskId, to: 'working' });
      for (let i = 0; i < 50 && events.length < 2; i++) await sleep(10);
      stop();
      await store.transition({ taskId: task.taskId, to: 'completed' });
      await sleep(50);
      expect(events.map((e) => e.status)).toEqual(['input_required', 'working']);
      // Changes made through this store object come with the task: no read-back needed.
      expect(events[1]?.task).toMatchObject({ taskId: task.taskId, status: 'working', owner: 'a' });
    });

    it('refuses a task beyond maxActivePerOwner; a task that ends, expires or loses its lease frees its place', async () => {
      const make = (
        owner: string,
        extra: { ttl?: number; runner?: string; leaseMs?: number } = {},
      ) =>
        store.create({
          owner,
          method: 'tools/call',
          ttl: 60_000,
          maxActivePerOwner: 3,
          ...extra,
        });
      const first = await make('a');
      await make('a', { ttl: 150 }); // expires while the test runs
      const third = await make('a', { runner: 'gone', leaseMs: 100 });
      await expect(make('a')).rejects.toBeInstanceOf(TaskLimitError);
      await expect(make('a')).rejects.toMatchObject({ limit: 3 });
      // Another owner has its own count; a creation without the option is not counted against.
      await make('b');
      // input_required is unfinished: it still counts.
      await store.transition({ taskId: first.taskId, to: 'input_required' });
      await expect(make('a')).rejects.toBeInstanceOf(TaskLimitError);
      await store.transition({ taskId: first.taskId, to: 'completed' });
      const fourth = await make('a');
      await expect(make('a')).rejects.toBeInstanceOf(TaskLimitError);
      await sleep(300); // the second expires; the third's runner stopped renewing its lease
      const fifth = await make('a');
      await expect(make('a')).rejects.toBeInstanceOf(TaskLimitError);
      expect(
        (await store.failExpiredLeases({ statusMessage: 'gone' })).map((t) => t.taskId),
      ).toEqual([third.taskId]);
      const sixth = await make('a');
      await expect(make('a')).rejects.toBeInstanceOf(TaskLimitError);
      // A refused task left nothing behind: the owner lists exactly what was created and lives.
      const listed = (await store.list({ owner: 'a', limit: 100 })).tasks.map((t) => t.taskId);
      expect(listed).toEqual([first, third, fourth, fifth, sixth].map((t) => t.taskId).reverse());
    });

    it("refuses a cursor it did not issue to this owner (tampered, forged, another owner's)", async () => {
      for (let i = 0; i < 3; i++)
        await store.create({ owner: 'a', method: 'tools/call', ttl: 60_000 });
      const page = await store.list({ owner: 'a', limit: 1 });
      const cursor = page.nextCursor as string;
      expect(cursor).toBeDefined();
      expect((await store.list({ owner: 'a', limit: 1, cursor })).tasks).toHaveLength(1);
      const last = cursor.slice(-1) === 'A' ? 'B' : 'A';
      const forged = [
        'tm1.zzzzzzzzzzz',
        'tr1.99999999999999999.00000000-0000-0000-0000-000000000000',
        `${cursor.slice(0, -1)}${last}`,
        cursor.replace(
          /^(t[mr]2\.)(\d)/,
          (_m, head: string, digit: string) => `${head}${(Number(digit) + 1) % 10}`,
        ),
        `${cursor}x`,
        '',
      ];
      for (const bad of forged)
        await expect(store.list({ owner: 'a', limit: 1, cursor: bad })).rejects.toBeInstanceOf(
          RangeError,
        );
      await expect(store.list({ owner: 'b', limit: 1, cursor })).rejects.toBeInstanceOf(RangeError);
    });
  });
}

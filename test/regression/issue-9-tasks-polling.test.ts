/**
 * Issue 9, "rate-limit tasks/get / tasks/result polling that ignores pollInterval": polls of one
 * task by one requestor get a token bucket of one poll per `pollIntervalMs` with a burst of
 * `pollBurst`. A poll beyond it is answered once its turn comes (at most one interval later), so
 * a poller looping without pause is slowed to the interval and never fails; polls sent side by
 * side beyond that are refused with `data.retryAfterMs` (since issue 19 the server's rate-limit
 * error, -31429, `data.limit` `taskPoll`). toolwire's own client, which
 * follows `pollInterval`, never waits and is never refused.
 */
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/index.js';
import { McpServer, type TaskOptions } from '../../src/server.js';
import { PollGate, type PollDecision } from '../../src/server/tasks/taskGuards.js';
import { connect } from '../support/harness.js';

type Raw = {
  request: (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>;
};
const raw = (c: { client: unknown }): Raw => (c.client as { connection: Raw }).connection;

function pollServer(tasks: TaskOptions) {
  const server = new McpServer({ name: 'polling', version: '1' }, { onerror: () => {}, tasks });
  server.registerTool(
    'slow',
    { execution: { taskSupport: 'optional' } },
    (_args, ctx) =>
      new Promise<string>((resolve) => {
        const timer = setTimeout(() => resolve('done'), 1500);
        ctx.signal.addEventListener('abort', () => clearTimeout(timer));
      }),
  );
  server.registerTool('quick', { execution: { taskSupport: 'optional' } }, () => 'done');
  return server;
}

async function createTask(c: { client: unknown }, name: string): Promise<string> {
  const created = await raw(c).request('tools/call', { name, arguments: {}, task: {} });
  return (created['task'] as { taskId: string }).taskId;
}

describe('issue 9: polling a task faster than its pollInterval', () => {
  it('tasks/get sent side by side beyond the burst: one waits its turn, the rest get -31429 with retryAfterMs', async () => {
    const server = pollServer({ pollIntervalMs: 300, pollBurst: 3 });
    try {
      const c = await connect(server);
      const taskId = await createTask(c, 'slow');
      const settled = await Promise.allSettled(
        Array.from({ length: 10 }, () => raw(c).request('tasks/get', { taskId })),
      );
      const answered = settled.filter((r) => r.status === 'fulfilled');
      const refused = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
      expect(answered).toHaveLength(4);
      expect(refused).toHaveLength(6);
      for (const error of refused) {
        expect(error).toMatchObject({
          code: ErrorCode.RateLimited,
          message: expect.stringMatching(
            /polled faster than its pollInterval \(300 ms\); retry in 1 s$/,
          ),
          data: { retryAfterMs: expect.any(Number), limit: 'taskPoll' },
        });
        expect((error as { data: { retryAfterMs: number } }).data.retryAfterMs).toBeGreaterThan(0);
      }
    } finally {
      await server.close();
    }
  });

  it('tasks/result is paced by the same bucket', async () => {
    const server = pollServer({ pollIntervalMs: 300, pollBurst: 2 });
    try {
      const c = await connect(server);
      const taskId = await createTask(c, 'quick');
      const settled = await Promise.allSettled(
        Array.from({ length: 6 }, () => raw(c).request('tasks/result', { taskId })),
      );
      expect(settled.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
      for (const r of settled)
        if (r.status === 'rejected')
          expect(r.reason).toMatchObject({ code: ErrorCode.RateLimited });
    } finally {
      await server.close();
    }
  });

  it('a poller looping without pause is slowed to the interval, never refused', async () => {
    const server = pollServer({ pollIntervalMs: 100, pollBurst: 2 });
    try {
      const c = await connect(server);
      const taskId = await createTask(c, 'slow');
      const started = Date.now();
      for (let i = 0; i < 8; i++)
        expect(await raw(c).request('tasks/get', { taskId })).toMatchObject({ taskId });
      // 2 at once, then one per 100 ms: the loop cannot have finished sooner.
      expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    } finally {
      await server.close();
    }
  });

  it("toolwire's client, following pollInterval, never waits and is never refused", async () => {
    const server = pollServer({ pollIntervalMs: 50 });
    const decisions: PollDecision['kind'][] = [];
    const polls = server.tasks?.polls;
    if (!polls) throw new Error('tasks are on');
    const take = polls.take.bind(polls);
    polls.take = (requestor, taskId) => {
      const decision = take(requestor, taskId);
      decisions.push(decision.kind);
      return decision;
    };
    try {
      const c = await connect(server);
      const statuses: string[] = [];
      const result = await c.client.callTool(
        'slow',
        {},
        { task: true, ontaskstatus: (t) => statuses.push(t.status) },
      );
      expect(result).toMatchObject({ content: [{ text: 'done' }] });
      expect(statuses).toEqual(['working', 'completed']);
      expect(decisions.length).toBeGreaterThanOrEqual(10); // it did poll, through the gate
      expect(decisions.filter((d) => d !== 'now')).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('issue 9: the poll gate itself (a fake clock)', () => {
  it('one per interval after the burst; a wait of at most one interval; side by side beyond it refused', () => {
    let now = 1_000;
    const gate = new PollGate({ intervalMs: 100, burst: 2, now: () => now });
    expect([gate.take('a', 't'), gate.take('a', 't')]).toEqual([{ kind: 'now' }, { kind: 'now' }]);
    expect(gate.take('a', 't')).toEqual({ kind: 'wait', waitMs: 100 });
    expect(gate.take('a', 't')).toEqual({ kind: 'refuse', retryAfterMs: 200 });
    now += 100; // the waiting poll went; the next one waits its turn again
    expect(gate.take('a', 't')).toEqual({ kind: 'wait', waitMs: 100 });
    now += 1_000; // idle: the burst is back
    expect([gate.take('a', 't'), gate.take('a', 't')]).toEqual([{ kind: 'now' }, { kind: 'now' }]);
  });

  it("someone naming another requestor's task id has a bucket of its own", () => {
    const now = 1_000;
    const gate = new PollGate({ intervalMs: 100, burst: 1, now: () => now });
    expect(gate.take('owner', 't').kind).toBe('now');
    expect(gate.take('mallory', 't').kind).toBe('now');
    expect(gate.take('mallory', 't').kind).toBe('wait');
    expect(gate.take('mallory', 't').kind).toBe('refuse');
    expect(gate.take('other', 't').kind).toBe('now');
    // The owner's bucket is its own: mallory's polls took nothing from it.
    expect(gate.take('owner', 't')).toEqual({ kind: 'wait', waitMs: 100 });
  });
});

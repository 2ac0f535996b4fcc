/**
 * Issue 9, "throttle and log repeated lookups of unknown task ids": every lookup of an id the
 * requestor has no task by is answered "unknown task" (-32602) as before, whether the task is
 * missing or someone else's. After `unknownTaskLookups.limit` of them within the window, the
 * requestor's task requests naming an id are refused for one window (the same answer
 * for every id, so it reveals nothing), and the server's `onerror` hears of it once, with the
 * count.
 */
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/index.js';
import { McpServer } from '../../src/server.js';
import { connect } from '../support/harness.js';

type Raw = {
  request: (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>;
};
const raw = (c: { client: unknown }): Raw => (c.client as { connection: Raw }).connection;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function lookupServer(windowMs: number) {
  const reports: Array<{ what: string; message: string }> = [];
  const server = new McpServer(
    { name: 'lookups', version: '1' },
    {
      onerror: (error, what) => reports.push({ what, message: (error as Error).message }),
      tasks: { unknownTaskLookups: { limit: 5, windowMs } },
    },
  );
  server.registerTool('quick', { execution: { taskSupport: 'optional' } }, () => 'done');
  return { server, reports };
}

async function createTask(c: { client: unknown }): Promise<string> {
  const created = await raw(c).request('tools/call', { name: 'quick', arguments: {}, task: {} });
  return (created['task'] as { taskId: string }).taskId;
}

describe('issue 9: lookups of unknown task ids', () => {
  it('answers -32602 for each, then refuses the requestor for a window (-31429 since issue 19), reported once', async () => {
    const { server, reports } = lookupServer(60_000);
    try {
      const alice = await connect(server, { identity: { id: 'alice' } });
      const bob = await connect(server, { identity: { id: 'bob' } });
      const own = await createTask(alice);
      const bobs = await createTask(bob);
      // Five unknown ids, by every method that takes one; a task of someone else counts too.
      const lookups: Array<[string, string]> = [
        ['tasks/get', crypto.randomUUID()],
        ['tasks/result', crypto.randomUUID()],
        ['tasks/cancel', crypto.randomUUID()],
        ['tasks/get', bobs],
        ['tasks/get', 'not-even-a-uuid'],
      ];
      for (const [method, taskId] of lookups) {
        await expect(raw(alice).request(method, { taskId })).rejects.toMatchObject({
          code: ErrorCode.InvalidParams,
          message: expect.stringContaining('Unknown task'),
        });
      }
      expect(reports).toEqual([
        {
          what: 'task lookups',
          message: expect.stringMatching(
            /^principal:alice asked for 5 unknown task ids within \d+ s; its task requests are refused for 60 s$/,
          ),
        },
      ]);
      // Now every lookup by id is refused alike, the requestor's own task included.
      for (const taskId of [own, bobs, crypto.randomUUID()]) {
        await expect(raw(alice).request('tasks/get', { taskId })).rejects.toMatchObject({
          code: ErrorCode.RateLimited,
          message: expect.stringMatching(
            /^Rate limit exceeded: too many requests for unknown tasks; retry in \d+ s$/,
          ),
          data: { retryAfterMs: expect.any(Number), limit: 'unknownTasks' },
        });
      }
      expect(reports).toHaveLength(1);
      // Listing still works; other requestors are not affected.
      expect((await alice.client.listTasks()).tasks.map((t) => t.taskId)).toEqual([own]);
      expect(await raw(bob).request('tasks/get', { taskId: bobs })).toMatchObject({ taskId: bobs });
    } finally {
      await server.close();
    }
  });

  it('the refusal ends with its window', async () => {
    const { server, reports } = lookupServer(300);
    try {
      const c = await connect(server);
      const own = await createTask(c);
      for (let i = 0; i < 5; i++)
        await expect(
          raw(c).request('tasks/get', { taskId: crypto.randomUUID() }),
        ).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
      await expect(raw(c).request('tasks/get', { taskId: own })).rejects.toMatchObject({
        code: ErrorCode.RateLimited,
      });
      await sleep(350);
      expect(await raw(c).request('tasks/get', { taskId: own })).toMatchObject({ taskId: own });
      expect(reports).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

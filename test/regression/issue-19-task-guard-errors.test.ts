/**
 * Issue 19, tasks: "The task guards answer -32000 with `retryAfterMs`; use the rate-limit error
 * the rest of the server uses." A poll of a task sent side by side beyond `pollBurst`, and a
 * task request by id of a requestor refused for asking after too many unknown ids, are now
 * answered as a call over a rate limit is: -31429 "Rate limit exceeded: ...; retry in N s",
 * `data: { retryAfterMs, limit }` (`taskPoll`, `unknownTasks`), and over Streamable HTTP with
 * status 429 and `Retry-After`. Tasks exist in revision 2025-11-25 only (elsewhere the task
 * methods are -32601), so that is where the guards answer.
 */
import { describe, expect, it } from 'vitest';
import { createHttpHandler } from '../../src/http.js';
import { ErrorCode } from '../../src/index.js';
import { McpServer, type TaskOptions } from '../../src/server.js';
import { connect } from '../support/harness.js';
import { openSession, post } from '../support/httpHarness.js';

type Raw = {
  request: (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>;
};
const raw = (c: { client: unknown }): Raw => (c.client as { connection: Raw }).connection;

function guardedServer(tasks: TaskOptions) {
  const server = new McpServer(
    { name: 'guarded', version: '1' },
    {
      onerror: () => {},
      tasks,
      rateLimit: { perPrincipal: { limit: 1, windowMs: 60_000 } },
    },
  );
  server.registerTool(
    'slow',
    { execution: { taskSupport: 'optional' } },
    (_args, ctx) =>
      new Promise<string>((resolve) => {
        const timer = setTimeout(() => resolve('done'), 1000);
        ctx.signal.addEventListener('abort', () => clearTimeout(timer));
      }),
  );
  return server;
}

/** The shape of the error a call over a rate limit gets, for `limit`. */
const rateLimited = (limit: string) => ({
  code: ErrorCode.RateLimited,
  message: expect.stringMatching(/^Rate limit exceeded: .*; retry in \d+ s$/),
  data: { retryAfterMs: expect.any(Number), limit },
});

describe('issue 19: the task guards answer with the rate-limit error', () => {
  it('a call over its limit, a poll beyond the burst and an id lookup after too many unknown ids alike', async () => {
    const server = guardedServer({
      pollIntervalMs: 1000,
      pollBurst: 1,
      unknownTaskLookups: { limit: 2, windowMs: 60_000 },
    });
    try {
      const c = await connect(server, { identity: { id: 'alice' } });
      const created = await raw(c).request('tools/call', { name: 'slow', arguments: {}, task: {} });
      const taskId = (created['task'] as { taskId: string }).taskId;
      // The rest of the server: the next call is over the per-principal limit.
      const call = await raw(c)
        .request('tools/call', { name: 'slow', arguments: {} })
        .catch((e: unknown) => e);
      expect(call).toMatchObject(rateLimited('principal'));

      // Polls side by side: one now, one on its turn, the third refused.
      const polls = await Promise.allSettled(
        Array.from({ length: 3 }, () => raw(c).request('tasks/get', { taskId })),
      );
      const refused = polls.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
      expect(refused).toEqual([expect.objectContaining(rateLimited('taskPoll'))]);
      expect(refused[0]).toMatchObject({
        message: expect.stringContaining(`task ${taskId} is polled faster than its pollInterval`),
      });

      // Two unknown ids, then every task request by id is refused.
      for (let i = 0; i < 2; i++)
        await expect(
          raw(c).request('tasks/get', { taskId: crypto.randomUUID() }),
        ).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
      const lookup = await raw(c)
        .request('tasks/cancel', { taskId })
        .catch((e: unknown) => e);
      expect(lookup).toMatchObject(rateLimited('unknownTasks'));
      const { data } = lookup as { data: { retryAfterMs: number } };
      expect(data.retryAfterMs).toBeGreaterThan(50_000);
      expect(data.retryAfterMs).toBeLessThanOrEqual(60_000);
      // The same data fields as a call's refusal, nothing else.
      expect(Object.keys(data).sort()).toEqual(Object.keys((call as { data: object }).data).sort());
    } finally {
      await server.close();
    }
  });

  it('over Streamable HTTP: 429 with Retry-After, the JSON-RPC error as the body', async () => {
    const server = guardedServer({ unknownTaskLookups: { limit: 1, windowMs: 60_000 } });
    const handler = createHttpHandler(server, { onerror: () => {} });
    try {
      const session = await openSession(handler, '2025-11-25');
      const lookup = (id: number) =>
        post(
          handler,
          { jsonrpc: '2.0', id, method: 'tasks/get', params: { taskId: crypto.randomUUID() } },
          { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
        );
      const unknown = await lookup(2);
      expect(unknown.status).toBe(200);
      expect(((await unknown.json()) as { error: { code: number } }).error.code).toBe(
        ErrorCode.InvalidParams,
      );
      const refused = await lookup(3);
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(50);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(await refused.json()).toMatchObject({ id: 3, error: rateLimited('unknownTasks') });
      // A revision without tasks has no task methods, whatever the guards say.
      const older = await openSession(handler, '2025-06-18');
      const none = await post(
        handler,
        { jsonrpc: '2.0', id: 4, method: 'tasks/get', params: { taskId: crypto.randomUUID() } },
        { 'mcp-session-id': older, 'mcp-protocol-version': '2025-06-18' },
      );
      expect(await none.json()).toMatchObject({ error: { code: ErrorCode.MethodNotFound } });
    } finally {
      await handler.close({ graceMs: 0 });
      await server.close();
    }
  });
});

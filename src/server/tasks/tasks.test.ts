import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { connect } from '../../../test/support/harness.js';
import { sleep } from '../../../test/support/scriptedTransport.js';
import { ErrorCode } from '../../jsonrpc/errors.js';
import { MemoryTaskStore } from '../../tasks/memoryTaskStore.js';
import type { TaskStore } from '../../tasks/taskStore.js';
import type { Task } from '../../tasks/eras/rev2025/taskWire.js';
import { McpServer } from '../../server.js';

function taskServer(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const server = new McpServer({ name: 'tasks', version: '1' }, { onerror: () => {}, ...options });
  server.registerTool(
    'report',
    {
      description: 'A slow report',
      execution: { taskSupport: 'required' },
      inputSchema: z.object({ steps: z.number().int(), delayMs: z.number().int() }),
      outputSchema: z.object({ pages: z.number() }),
      immediateResponse: 'The report is being written; I will have it shortly.',
    },
    async ({ steps, delayMs }, ctx) => {
      for (let i = 1; i <= steps; i++) {
        await sleep(delayMs);
        ctx.progress(i, { total: steps });
      }
      return { structuredContent: { pages: steps } };
    },
  );
  server.registerTool(
    'flexible',
    { execution: { taskSupport: 'optional' } },
    () => 'flexible done',
  );
  server.registerTool('plain', {}, () => 'plain done');
  server.registerTool('broken', { execution: { taskSupport: 'optional' } }, () => {
    throw new Error('kaboom');
  });
  server.registerTool('ask', { execution: { taskSupport: 'required' } }, async (_a, ctx) => {
    const answer = await ctx.elicit({
      message: 'Proceed?',
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    });
    return `answer: ${JSON.stringify(answer.content)}`;
  });
  server.registerTool(
    'forever',
    { execution: { taskSupport: 'required' } },
    (_a, ctx) =>
      new Promise<string>((resolve) =>
        ctx.signal.addEventListener('abort', () => resolve('stopped')),
      ),
  );
  return server;
}

type Raw = {
  request: (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>;
};
const raw = (c: { client: unknown }): Raw => (c.client as { connection: Raw }).connection;

describe('tasks: capabilities and tool-level negotiation', () => {
  it('declares the tasks capability on 2025-11-25 only, and ignores params.task on older revisions', async () => {
    const server = taskServer();
    const modern = await connect(server);
    expect(modern.client.serverCapabilities?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const old = await connect(server, { version: '2025-06-18' });
    expect(old.client.serverCapabilities?.tasks).toBeUndefined();
    // An older server-side revision processes the call normally, ignoring the task field.
    expect(
      await raw(old).request('tools/call', {
        name: 'report',
        arguments: { steps: 1, delayMs: 1 },
        task: {},
      }),
    ).toMatchObject({
      structuredContent: { pages: 1 },
    });
  });

  it('answers -32601 when the call and the tool disagree about tasks', async () => {
    const c = await connect(taskServer());
    await expect(
      raw(c).request('tools/call', { name: 'plain', arguments: {}, task: {} }),
    ).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
    await expect(
      raw(c).request('tools/call', { name: 'report', arguments: { steps: 1, delayMs: 1 } }),
    ).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
    expect(await raw(c).request('tools/call', { name: 'flexible', arguments: {} })).toMatchObject({
      content: [{ text: 'flexible done' }],
    });
  });

  it('is off with tasks: false', async () => {
    const c = await connect(new McpServer({ name: 'x', version: '1' }, { tasks: false }));
    expect(c.client.serverCapabilities?.tasks).toBeUndefined();
    await expect(raw(c).request('tasks/list', {})).rejects.toMatchObject({
      code: ErrorCode.MethodNotFound,
    });
  });
});

describe('tasks: lifecycle through the client', () => {
  it('runs a required-task tool as a task: immediate response, statuses, progress, validated result', async () => {
    const c = await connect(taskServer());
    const statuses: string[] = [];
    const progress: number[] = [];
    let immediate = '';
    const result = await c.client.callTool(
      'report',
      { steps: 3, delayMs: 30 },
      {
        ontaskstatus: (t) => statuses.push(t.status),
        onprogress: (p) => progress.push(p.progress),
        onimmediateresponse: (text) => (immediate = text),
      },
    );
    expect(result).toMatchObject({
      structuredContent: { pages: 3 },
      _meta: { 'io.modelcontextprotocol/related-task': { taskId: expect.any(String) } },
    });
    expect(statuses[0]).toBe('working');
    expect(progress).toEqual([1, 2, 3]);
    expect(immediate).toContain('being written');
  });

  it("reports each status once, from the server's status notifications between polls", async () => {
    // Polls every 60 s: what the client reports here comes from notifications/tasks/status.
    const everyStatus: string[] = [];
    const c = await connect(taskServer({ tasks: { pollIntervalMs: 60_000 } }), {
      client: { onTaskStatus: (t) => everyStatus.push(t.status) },
    });
    const statuses: string[] = [];
    await c.client.callTool(
      'report',
      { steps: 1, delayMs: 20 },
      {
        ontaskstatus: (t) => statuses.push(t.status),
      },
    );
    expect(statuses).toEqual(['working', 'completed']);
    expect(everyStatus).toEqual(['completed']);
  });

  it('runs an optional tool as a task only when asked', async () => {
    const c = await connect(taskServer());
    const plain = await c.client.callTool('flexible');
    expect(plain._meta).toBeUndefined();
    const asTask = await c.client.callTool('flexible', {}, { task: true });
    expect(asTask._meta).toHaveProperty(['io.modelcontextprotocol/related-task']);
    await expect(c.client.callTool('plain', {}, { task: true })).rejects.toMatchObject({
      code: 'invalid-tool',
    });
  });

  it("a tool that throws fails its task; tasks/result returns exactly the call's error result", async () => {
    const c = await connect(taskServer());
    const result = await c.client.callTool('broken', {}, { task: true });
    expect(result).toMatchObject({
      isError: true,
      content: [{ text: 'Tool "broken" failed with an internal error' }],
    });
    const { tasks } = await c.client.listTasks();
    expect(tasks[0]?.status).toBe('failed');
  });

  it('moves to input_required while the tool waits on an elicitation, carrying the related task', async () => {
    let elicitMeta: unknown;
    const seen: string[] = [];
    // Polled every 50 ms (the default suggests 1 s), so a short wait is seen.
    const c = await connect(taskServer({ tasks: { pollIntervalMs: 50 } }), {
      client: {
        handlers: {
          elicitation: async (_p, ctx) => {
            elicitMeta = ctx.meta;
            await sleep(300); // long enough for the status poll to see input_required
            return { action: 'accept', content: { ok: true } };
          },
        },
      },
    });
    const result = await c.client.callTool('ask', {}, { ontaskstatus: (t) => seen.push(t.status) });
    expect(result).toMatchObject({ content: [{ text: 'answer: {"ok":true}' }] });
    expect(elicitMeta).toMatchObject({
      'io.modelcontextprotocol/related-task': { taskId: expect.any(String) },
    });
    expect(seen).toContain('input_required');
    const statusNotes = c.serverSent.filter(
      (m) => (m as { method?: string }).method === 'notifications/tasks/status',
    );
    expect(statusNotes.map((m) => (m as { params: Task }).params.status)).toEqual([
      'input_required',
      'working',
      'completed',
    ]);
  });

  it('cancelling the call cancels the task; the handler is aborted and the task stays cancelled', async () => {
    const c = await connect(taskServer());
    const controller = new AbortController();
    let taskId = '';
    const call = c.client.callTool(
      'forever',
      {},
      { signal: controller.signal, ontaskstatus: (t) => (taskId = t.taskId) },
    );
    await sleep(50);
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
    await sleep(50);
    expect((await c.client.getTask(taskId)).status).toBe('cancelled');
    await expect(c.client.cancelTask(taskId)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining('already cancelled'),
    });
    await expect(c.client.taskResult(taskId)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
  });
});

describe('tasks: the task methods', () => {
  it('tasks/get and tasks/result answer the owner only; others get "unknown task"', async () => {
    const server = taskServer();
    const alice = await connect(server, { identity: { id: 'alice' } });
    const mallory = await connect(server, { identity: { id: 'mallory' } });
    const created = await raw(alice).request('tools/call', {
      name: 'report',
      arguments: { steps: 1, delayMs: 5 },
      task: { ttl: 60_000 },
    });
    const task = created['task'] as Task;
    expect(task).toMatchObject({ status: 'working', ttl: 60_000, pollInterval: 1000 });
    await expect(mallory.client.getTask(task.taskId)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining('Unknown task'),
    });
    await expect(mallory.client.taskResult(task.taskId)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    expect((await mallory.client.listTasks()).tasks).toEqual([]);
    // The same principal on another session sees it.
    const alice2 = await connect(server, { identity: { id: 'alice' } });
    expect(await alice2.client.taskResult(task.taskId)).toMatchObject({
      structuredContent: { pages: 1 },
    });
    expect((await alice.client.getTask(task.taskId)).status).toBe('completed');
  });

  it('tasks/result blocks until the task ends', async () => {
    const c = await connect(taskServer());
    const created = await raw(c).request('tools/call', {
      name: 'report',
      arguments: { steps: 2, delayMs: 80 },
      task: {},
    });
    const taskId = (created['task'] as Task).taskId;
    const started = Date.now();
    expect(await c.client.taskResult(taskId)).toMatchObject({ structuredContent: { pages: 2 } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('caps the TTL and reports the real one; lists tasks page by page', async () => {
    const c = await connect(
      taskServer({ tasks: { maxTtlMs: 5_000, defaultTtlMs: 2_000, pageSize: 2 } }),
    );
    const capped = await raw(c).request('tools/call', {
      name: 'flexible',
      arguments: {},
      task: { ttl: 999_999 },
    });
    expect((capped['task'] as Task).ttl).toBe(5_000);
    const defaulted = await raw(c).request('tools/call', {
      name: 'flexible',
      arguments: {},
      task: {},
    });
    expect((defaulted['task'] as Task).ttl).toBe(2_000);
    await raw(c).request('tools/call', { name: 'flexible', arguments: {}, task: {} });
    const first = await c.client.listTasks();
    expect(first.tasks).toHaveLength(2);
    expect(first.nextCursor).toBeDefined();
    const second = await c.client.listTasks({ cursor: first.nextCursor as string });
    expect(second.tasks).toHaveLength(1);
    expect(second.nextCursor).toBeUndefined();
    await expect(c.client.listTasks({ cursor: 'bogus' })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
  });

  it('hands out no task id when the task cannot be stored', async () => {
    const store = new MemoryTaskStore();
    const failing: TaskStore = Object.assign(Object.create(store) as TaskStore, {
      create: () => Promise.reject(new Error('store down')),
    });
    const c = await connect(taskServer({ tasks: { store: failing } }));
    await expect(
      raw(c).request('tools/call', { name: 'flexible', arguments: {}, task: {} }),
    ).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: expect.stringContaining('not created'),
    });
  });

  it('keeps a finished result through a store outage and stores it once the store is back', async () => {
    const store = new MemoryTaskStore();
    let outage = true;
    const flaky: TaskStore = Object.assign(Object.create(store) as TaskStore, {
      transition: (options: Parameters<TaskStore['transition']>[0]) =>
        outage && options.outcome
          ? Promise.reject(new Error('store down'))
          : store.transition(options),
    });
    const c = await connect(taskServer({ tasks: { store: flaky } }));
    const created = (await raw(c).request('tools/call', {
      name: 'flexible',
      arguments: {},
      task: {},
    })) as { task: Task };
    await sleep(250); // the run is over; storing its outcome failed and is being retried
    expect((await c.client.getTask(created.task.taskId)).status).toBe('working');
    outage = false;
    expect(await c.client.taskResult(created.task.taskId)).toMatchObject({
      content: [{ type: 'text', text: 'flexible done' }],
    });
    expect((await c.client.getTask(created.task.taskId)).status).toBe('completed');
  });

  it('a server closing gives running tasks their grace, then fails the rest at once', async () => {
    const store = new MemoryTaskStore();
    const server = taskServer({ tasks: { store } });
    const c = await connect(server);
    const start = async (name: string, args: Record<string, unknown>) =>
      ((await raw(c).request('tools/call', { name, arguments: args, task: {} })) as { task: Task })
        .task.taskId;
    const quick = await start('report', { steps: 1, delayMs: 30 });
    const stuck = await start('forever', {});
    const owner = `session:${c.session.id}`;
    await server.close({ taskGraceMs: 200 });
    expect((await store.get({ taskId: quick, owner }))?.status).toBe('completed');
    expect(await store.get({ taskId: stuck, owner })).toMatchObject({
      status: 'failed',
      statusMessage: 'The server shut down before the task finished',
      outcome: { kind: 'error', error: { code: ErrorCode.InternalError } },
    });
    // The handler was aborted; its late "stopped" result does not overwrite the failure.
    await sleep(20);
    expect((await store.get({ taskId: stuck, owner }))?.status).toBe('failed');
  });

  it('fails the tasks of a runner that stopped renewing its lease', async () => {
    const store = new MemoryTaskStore();
    const c = await connect(taskServer({ tasks: { store, leaseMs: 90 } }));
    // A task left behind by a process that died: its lease is never renewed.
    const orphan = await store.create({
      owner: `session:${c.session.id}`,
      method: 'tools/call',
      ttl: 60_000,
      runner: 'dead-process',
      leaseMs: 90,
    });
    await sleep(300);
    expect(await c.client.getTask(orphan.taskId)).toMatchObject({
      status: 'failed',
      statusMessage: expect.stringContaining('stopped'),
    });
    await expect(c.client.taskResult(orphan.taskId)).rejects.toMatchObject({
      code: ErrorCode.InternalError,
    });
  });
});

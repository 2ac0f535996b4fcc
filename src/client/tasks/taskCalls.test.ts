import { describe, expect, it } from 'vitest';
import { ScriptedTransport } from '../../../test/support/scriptedTransport.js';
import type { JsonRpcMessage, JsonRpcRequest } from '../../jsonrpc/types.js';
import type { Task } from '../../tasks/eras/rev2025/taskWire.js';
import type { TaskStatus } from '../../tasks/taskStatus.js';
import { McpClient } from '../mcpClient.js';
import { taskStatusReporter } from './taskCalls.js';

const at = (second: number): string => new Date(Date.UTC(2025, 0, 1, 0, 0, second)).toISOString();

function task(status: TaskStatus, second: number, extra: Partial<Task> = {}): Task {
  return {
    taskId: 't1',
    status,
    createdAt: at(0),
    lastUpdatedAt: at(second),
    ttl: 60_000,
    ...extra,
  };
}

/** The next request the client sends with this method (notifications in between are skipped). */
async function nextRequest(t: ScriptedTransport, method: string): Promise<JsonRpcRequest> {
  for (;;) {
    const m = (await t.next()) as JsonRpcMessage;
    if ('method' in m && 'id' in m && m.method === method) return m;
    if ('method' in m && 'id' in m) throw new Error(`expected ${method}, got ${m.method}`);
  }
}

/** A client connected to a scripted 2025-11-25 server offering one tool that requires a task. */
async function connected(): Promise<{ t: ScriptedTransport; client: McpClient }> {
  const t = new ScriptedTransport();
  const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'legacy' });
  const connecting = client.connect(t);
  const init = await nextRequest(t, 'initialize');
  t.inject({
    jsonrpc: '2.0',
    id: init.id,
    result: {
      protocolVersion: '2025-11-25',
      capabilities: {
        tools: {},
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      },
      serverInfo: { name: 'scripted', version: '1' },
    },
  });
  await connecting;
  return { t, client };
}

async function startJob(
  t: ScriptedTransport,
  client: McpClient,
  pollInterval: number,
): Promise<{ statuses: string[]; call: Promise<unknown>; resultId: JsonRpcRequest['id'] }> {
  const statuses: string[] = [];
  const call = client.callTool(
    'job',
    {},
    { ontaskstatus: (s) => statuses.push(`${s.status}@${s.lastUpdatedAt.slice(17, 19)}`) },
  );
  const list = await nextRequest(t, 'tools/list');
  t.inject({
    jsonrpc: '2.0',
    id: list.id,
    result: {
      tools: [
        { name: 'job', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } },
      ],
    },
  });
  const create = await nextRequest(t, 'tools/call');
  t.inject({
    jsonrpc: '2.0',
    id: create.id,
    result: { task: task('working', 1, { pollInterval }) },
  });
  const result = await nextRequest(t, 'tasks/result');
  return { statuses, call, resultId: result.id };
}

describe('task status order (issue 8)', () => {
  it('ignores a poll answer that is older than a status notification already reported', async () => {
    const { t, client } = await connected();
    const { statuses, call, resultId } = await startJob(t, client, 50);
    const poll = await nextRequest(t, 'tasks/get');
    // The task completes while the poll is on its way: the notification overtakes the answer.
    t.inject({
      jsonrpc: '2.0',
      method: 'notifications/tasks/status',
      params: task('completed', 3),
    });
    t.inject({ jsonrpc: '2.0', id: poll.id, result: task('working', 2) });
    t.inject({ jsonrpc: '2.0', id: resultId, result: { content: [{ type: 'text', text: 'ok' }] } });
    await expect(call).resolves.toMatchObject({ content: [{ text: 'ok' }] });
    expect(statuses).toEqual(['working@01', 'completed@03']);
    await client.close();
  });

  it('reports the terminal status when the result arrives before any status says so', async () => {
    const { t, client } = await connected();
    const { statuses, call, resultId } = await startJob(t, client, 60_000);
    // As over Streamable HTTP: the tasks/result answer overtakes the status notification.
    t.inject({ jsonrpc: '2.0', id: resultId, result: { content: [{ type: 'text', text: 'ok' }] } });
    const get = await nextRequest(t, 'tasks/get');
    expect(get.params).toEqual({ taskId: 't1' });
    t.inject({ jsonrpc: '2.0', id: get.id, result: task('completed', 2) });
    await call;
    expect(statuses).toEqual(['working@01', 'completed@02']);
    // A late notification of the same end changes nothing.
    t.inject({
      jsonrpc: '2.0',
      method: 'notifications/tasks/status',
      params: task('completed', 2),
    });
    expect(await t.quiet()).toEqual([]);
    expect(statuses).toHaveLength(2);
    await client.close();
  });

  it('asks nothing more when the terminal status came before the result', async () => {
    const { t, client } = await connected();
    const { statuses, call, resultId } = await startJob(t, client, 60_000);
    t.inject({ jsonrpc: '2.0', method: 'notifications/tasks/status', params: task('failed', 2) });
    t.inject({
      jsonrpc: '2.0',
      id: resultId,
      result: { content: [{ type: 'text', text: 'no' }], isError: true },
    });
    await expect(call).resolves.toMatchObject({ isError: true });
    expect(await t.quiet()).toEqual([]);
    expect(statuses).toEqual(['working@01', 'failed@02']);
    await client.close();
  });
});

describe('a caller who gives up while the task is being created', () => {
  it('sends no notifications/cancelled (the spec forbids it for tasks): it cancels the task it gets', async () => {
    const { t, client } = await connected();
    const cancel = new AbortController();
    const call = client.callTool('job', {}, { signal: cancel.signal });
    const list = await nextRequest(t, 'tools/list');
    t.inject({
      jsonrpc: '2.0',
      id: list.id,
      result: {
        tools: [
          { name: 'job', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } },
        ],
      },
    });
    const create = await nextRequest(t, 'tools/call');
    cancel.abort();
    // The task the server created meanwhile arrives after the caller gave up.
    t.inject({ jsonrpc: '2.0', id: create.id, result: { task: task('working', 1) } });
    const cancelled = await nextRequest(t, 'tasks/cancel');
    expect(cancelled.params).toEqual({ taskId: 't1' });
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
    const notifications = t.sent
      .map((s) => s.message)
      .filter((m) => 'method' in m && m.method === 'notifications/cancelled');
    expect(notifications).toEqual([]);
  });

  it('does the same when its time runs out first (found in review)', async () => {
    const { t, client } = await connected();
    const call = client.callTool('job', {}, { timeoutMs: 100 });
    const list = await nextRequest(t, 'tools/list');
    t.inject({
      jsonrpc: '2.0',
      id: list.id,
      result: {
        tools: [
          { name: 'job', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } },
        ],
      },
    });
    const create = await nextRequest(t, 'tools/call');
    await new Promise((resolve) => setTimeout(resolve, 300));
    t.inject({ jsonrpc: '2.0', id: create.id, result: { task: task('working', 1) } });
    expect((await nextRequest(t, 'tasks/cancel')).params).toEqual({ taskId: 't1' });
    await expect(call).rejects.toMatchObject({ code: 'timeout' });
    const notifications = t.sent
      .map((s) => s.message)
      .filter((m) => 'method' in m && m.method === 'notifications/cancelled');
    expect(notifications).toEqual([]);
  });

  it('cancels a task whose caller gave up from its first status callback', async () => {
    const { t, client } = await connected();
    const cancel = new AbortController();
    const call = client.callTool(
      'job',
      {},
      { signal: cancel.signal, ontaskstatus: () => cancel.abort() },
    );
    const list = await nextRequest(t, 'tools/list');
    t.inject({
      jsonrpc: '2.0',
      id: list.id,
      result: {
        tools: [
          { name: 'job', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } },
        ],
      },
    });
    const create = await nextRequest(t, 'tools/call');
    t.inject({ jsonrpc: '2.0', id: create.id, result: { task: task('working', 1) } });
    expect((await nextRequest(t, 'tasks/cancel')).params).toEqual({ taskId: 't1' });
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('taskStatusReporter', () => {
  const run = (tasks: Task[]): string[] => {
    const seen: string[] = [];
    const reporter = taskStatusReporter((t) =>
      seen.push(`${t.status}${t.statusMessage ? `:${t.statusMessage}` : ''}`),
    );
    for (const t of tasks) reporter.offer(t);
    return seen;
  };

  it('reports each change once, in order, and nothing after a terminal status', () => {
    expect(
      run([
        task('working', 1),
        task('working', 2), // a poll repeating it
        task('input_required', 3, { statusMessage: 'Which city?' }),
        task('input_required', 3, { statusMessage: 'Which city?' }),
        task('working', 2), // a stale poll answer
        task('working', 4),
        task('completed', 5),
        task('working', 6), // nothing follows a terminal status, whatever its timestamp
        task('failed', 7),
      ]),
    ).toEqual(['working', 'input_required:Which city?', 'working', 'completed']);
  });

  it('takes a new message as a change, and equal timestamps in arrival order', () => {
    expect(
      run([
        task('working', 1, { statusMessage: 'Step 1' }),
        task('working', 2, { statusMessage: 'Step 2' }),
        task('input_required', 2),
        task('working', 2),
      ]),
    ).toEqual(['working:Step 1', 'working:Step 2', 'input_required', 'working']);
  });

  it('falls back to arrival order for unreadable timestamps', () => {
    const bad = (status: TaskStatus): Task => ({ ...task(status, 1), lastUpdatedAt: 'soon' });
    expect(run([bad('working'), task('input_required', 1), bad('working')])).toEqual([
      'working',
      'input_required',
      'working',
    ]);
    const reporter = taskStatusReporter(undefined);
    expect(reporter.ended).toBe(false);
    reporter.offer(bad('cancelled'));
    expect(reporter.ended).toBe(true);
  });
});

/**
 * The client's API for tasks of one's own (`startTask`, `getTask`, `watchTask`, `updateTask`,
 * `taskResult`, `cancelTask`): the tasks extension on 2026-07-28 sessions and the 2025-11-25
 * tasks, against toolwire's server through the test harness (every message checked against its
 * revision's schema, the extension's against its own).
 */
import { describe, expect, it } from 'vitest';
import { connect } from '../../../test/support/harness.js';
import { sleep } from '../../../test/support/scriptedTransport.js';
import type { JsonRpcMessage } from '../../jsonrpc/types.js';
import { McpServer } from '../../server/mcpServer.js';
import type { TaskState } from '../tasks/taskState.js';

function server(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const s = new McpServer(
    { name: 'own', version: '1' },
    { tasks: { pollIntervalMs: 10 }, ...options },
  );
  s.registerTool('greet', { execution: { taskSupport: 'required' } }, async (_a, { elicit }) => {
    const answer = await elicit(
      {
        message: 'Name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      },
      { inputKey: 'name' },
    );
    return `Hello, ${String(answer.content?.['name'])}!`;
  });
  s.registerTool('plain', {}, () => 'at once');
  s.registerTool('slow', { execution: { taskSupport: 'optional' } }, async (_a, { signal }) => {
    await sleep(150);
    if (signal.aborted) throw new Error('cancelled');
    return 'slow done';
  });
  s.registerTool('forever', { execution: { taskSupport: 'required' } }, (_a, { signal }) => {
    return new Promise<string>((_resolve, reject) =>
      signal.addEventListener('abort', () => reject(signal.reason as Error)),
    );
  });
  return s;
}

const methodsOf = (sent: unknown[]) =>
  (sent as JsonRpcMessage[]).flatMap((m) => ('method' in m ? [m.method] : []));

describe('tasks of your own, 2026-07-28 (the tasks extension)', () => {
  it('starts a task, watches it to input_required, answers it with updateTask, and reads its result', async () => {
    // The application answers by itself (updateTask): it declares elicitation without a handler.
    const { client: c, clientSent } = await connect(server(), {
      era: '2026',
      client: { capabilities: { elicitation: {} } },
    });
    const started = await c.startTask('greet');
    if (!started.task) throw new Error('expected a task');
    expect(started.task.status).toBe('working');
    const { taskId } = started.task;

    const asked = await new Promise<TaskState>((resolve, reject) => {
      const stop = new AbortController();
      c.watchTask(taskId, {
        signal: stop.signal,
        ontaskstatus: (task) => {
          if (task.status !== 'input_required') return;
          stop.abort();
          resolve(task);
        },
      }).then(
        (ended) => reject(new Error(`ended ${ended.status} without asking`)),
        (error: unknown) => {
          if (!stop.signal.aborted)
            reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
    expect(Object.keys(asked.inputRequests ?? {})).toEqual(['name']);
    expect(asked.inputRequests?.['name']).toMatchObject({ method: 'elicitation/create' });
    expect((await c.getTask(taskId)).status).toBe('input_required');

    const statuses: string[] = [];
    const watching = c.watchTask(taskId, { ontaskstatus: (t) => statuses.push(t.status) });
    await c.updateTask(taskId, { name: { action: 'accept', content: { name: 'Ada' } } });
    const ended = await watching;
    expect(ended.status).toBe('completed');
    expect(ended.result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
    expect(statuses.at(-1)).toBe('completed');
    expect(statuses[0]).toBe('input_required');

    const result = await c.taskResult(taskId);
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    expect(result).not.toHaveProperty('resultType');
    expect(methodsOf(clientSent)).toEqual(
      expect.arrayContaining(['tasks/update', 'tasks/get', 'subscriptions/listen']),
    );
    await c.close();
  });

  it('taskResult answers input through the handlers, as callTool does', async () => {
    const { client: c } = await connect(server(), {
      era: '2026',
      client: {
        handlers: { elicitation: () => ({ action: 'accept', content: { name: 'Grace' } }) },
      },
    });
    const started = await c.startTask('greet');
    if (!started.task) throw new Error('expected a task');
    const result = await c.taskResult(started.task.taskId);
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Grace!' }]);
    await c.close();
  });

  it('a tool that does not run as a task: startTask returns its result', async () => {
    const { client: c } = await connect(server(), { era: '2026' });
    const started = await c.startTask('plain');
    expect(started.task).toBeUndefined();
    expect(started.result?.content).toEqual([{ type: 'text', text: 'at once' }]);
    await c.close();
  });

  it('cancelTask ends a running task and returns its state; giving up taskResult leaves one running', async () => {
    const { client: c } = await connect(server(), { era: '2026' });
    const started = await c.startTask('forever');
    if (!started.task) throw new Error('expected a task');
    const { taskId } = started.task;
    await expect(c.taskResult(taskId, { timeoutMs: 50 })).rejects.toThrow();
    expect((await c.getTask(taskId)).status).toBe('working');
    const cancelled = await c.cancelTask(taskId);
    expect(cancelled.status).toBe('cancelled');
    // The extension acknowledges a cancel of an ended task too; the state says how it ended.
    expect((await c.cancelTask(taskId)).status).toBe('cancelled');
    await expect(c.taskResult(taskId)).rejects.toMatchObject({ code: 'aborted' });
    await c.close();
  });

  it('follows a task by polling when the server refuses the listen for it', async () => {
    // One listen per client: the client's listen for tool changes holds it.
    const s = server({ listens: { perClient: 1 } });
    const { client: c, clientSent } = await connect(s, {
      era: '2026',
      client: { onToolsChanged: () => {} },
    });
    for (let i = 0; i < 100 && !c.listening; i++) await sleep(10);
    expect(c.listening).toBe(true);
    const statuses: string[] = [];
    const result = await c.callTool(
      'slow',
      {},
      { task: true, ontaskstatus: (t) => statuses.push(t.status) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'slow done' }]);
    expect(statuses).toEqual(['working', 'completed']);
    expect(methodsOf(clientSent)).toContain('tasks/get');
    // The tool-change listen was not disturbed by the refused one.
    expect(c.listening).toBe(true);
    await c.close();
  });

  it('refuses updateTask on a 2025 session and the task methods without the extension', async () => {
    const legacy = await connect(server());
    await expect(legacy.client.updateTask('x', {})).rejects.toMatchObject({
      code: 'unsupported-version',
    });
    await legacy.client.close();
    const { client: c } = await connect(server(), {
      era: '2026',
      client: { tasksExtension: false },
    });
    await expect(c.getTask('x')).rejects.toMatchObject({ code: 'capability-missing' });
    await expect(c.listTasks()).rejects.toMatchObject({ code: 'unsupported-version' });
    await c.close();
  });
});

describe('tasks of your own, 2025-11-25', () => {
  it('starts a task, watches it to its end and reads its result', async () => {
    const { client: c } = await connect(server());
    const started = await c.startTask('slow', {}, { ttl: 60_000 });
    if (!started.task) throw new Error('expected a task');
    expect(started.task.ttl).toBe(60_000);
    const statuses: string[] = [];
    const ended = await c.watchTask(started.task.taskId, {
      ontaskstatus: (t) => statuses.push(t.status),
    });
    expect(ended.status).toBe('completed');
    expect(statuses).toEqual(['working', 'completed']);
    const result = await c.taskResult(started.task.taskId);
    expect(result.content).toEqual([{ type: 'text', text: 'slow done' }]);
    await c.close();
  });

  it('startTask of a tool that cannot run as a task is refused before anything is sent', async () => {
    const { client: c } = await connect(server());
    await expect(c.startTask('plain')).rejects.toMatchObject({ code: 'invalid-tool' });
    await c.close();
  });
});

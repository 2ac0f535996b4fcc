/**
 * Issue 23 over Streamable HTTP: toolwire's client and server with tasks of both generations on
 * one endpoint. On 2026-07-28 (stateless requests): a task followed by `callTool` (its status
 * heard through a `subscriptions/listen` stream, its question answered by `tasks/update`), a
 * task of your own started, watched, answered and read, a cancel, and input gathered by round
 * trip before the task starts (`inputBeforeTask`); on 2025-11-25 (a session) the same API.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import { createHttpHandler, HttpClientTransport } from '../../src/http.js';
import { serveHttp } from '../../src/node.js';
import { McpServer } from '../../src/server.js';
import type { TaskState } from '../../src/client.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close().catch(() => {});
});

const NAME = { type: 'object' as const, properties: { name: { type: 'string' as const } } };

async function start() {
  const server = new McpServer(
    { name: 'tasks-http', version: '1' },
    { tasks: { pollIntervalMs: 20 } },
  );
  server.registerTool(
    'greet',
    { execution: { taskSupport: 'required' } },
    async (_a, { elicit }) => {
      const answer = await elicit(
        { message: 'Name?', requestedSchema: NAME },
        { inputKey: 'name' },
      );
      return `Hello, ${String(answer.content?.['name'])}!`;
    },
  );
  server.registerTool(
    'wait',
    { execution: { taskSupport: 'optional' } },
    (_a, { signal }) =>
      new Promise<string>((resolve) => signal.addEventListener('abort', () => resolve('stopped'))),
  );
  server.registerTool(
    'onboard',
    { execution: { taskSupport: 'required' }, inputBeforeTask: true },
    async (_a, { elicit, detach }) => {
      const who = await elicit({ message: 'Who?', requestedSchema: NAME }, { inputKey: 'who' });
      await detach();
      return `${String(who.content?.['name'])} onboarded`;
    },
  );
  const handler = createHttpHandler(server, { onerror: () => {} });
  const listener = await serveHttp(handler);
  open.push(listener, handler);
  return listener.url;
}

async function client(url: string, era: 'modern' | 'legacy', options = {}) {
  const c = new McpClient({ name: 'tasks-client', version: '1' }, { protocolEra: era, ...options });
  await c.connect(new HttpClientTransport(url));
  open.push(c);
  return c;
}

const answering = (name: string) => ({
  handlers: { elicitation: () => ({ action: 'accept' as const, content: { name } }) },
});

describe('tasks over Streamable HTTP', () => {
  it('2026-07-28: callTool follows a task and answers its question', async () => {
    const c = await client(await start(), 'modern', answering('Ada'));
    const statuses: string[] = [];
    const result = await c.callTool('greet', {}, { ontaskstatus: (t) => statuses.push(t.status) });
    expect(c.protocolVersion).toBe('2026-07-28');
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    expect(statuses).toEqual(['working', 'input_required', 'completed']);
  });

  it('2026-07-28: a task of your own, started, watched, answered, read; another cancelled', async () => {
    const url = await start();
    // Answers by itself: declares elicitation without a handler.
    const c = await client(url, 'modern', { capabilities: { elicitation: {} } });
    const started = await c.startTask('greet');
    if (!started.task) throw new Error('expected a task');
    const { taskId } = started.task;
    const seen: TaskState[] = [];
    const updates: Array<Promise<void>> = [];
    const ended = await c.watchTask(taskId, {
      ontaskstatus: (task) => {
        seen.push(task);
        if (task.status === 'input_required')
          updates.push(
            c.updateTask(taskId, { name: { action: 'accept', content: { name: 'Bo' } } }),
          );
      },
    });
    await Promise.all(updates);
    // Watched from its state when the watch began (it may already be waiting for its answer).
    expect(seen.map((t) => t.status).slice(-2)).toEqual(['input_required', 'completed']);
    expect(seen.at(-2)?.inputRequests?.['name']).toMatchObject({ method: 'elicitation/create' });
    expect(ended.result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Bo!' }] });
    expect((await c.taskResult(taskId)).content).toEqual([{ type: 'text', text: 'Hello, Bo!' }]);

    const waiting = await c.startTask('wait');
    if (!waiting.task) throw new Error('expected a task');
    expect((await c.cancelTask(waiting.task.taskId)).status).toBe('cancelled');
  });

  it('2026-07-28: input by round trip before the task starts', async () => {
    const c = await client(await start(), 'modern', answering('Cy'));
    const result = await c.callTool('onboard');
    expect(result.content).toEqual([{ type: 'text', text: 'Cy onboarded' }]);
  });

  it('2025-11-25 on the same endpoint: the same API', async () => {
    const c = await client(await start(), 'legacy', answering('Di'));
    expect((await c.callTool('greet')).content).toEqual([{ type: 'text', text: 'Hello, Di!' }]);
    const started = await c.startTask('wait', {}, { ttl: 60_000 });
    if (!started.task) throw new Error('expected a task');
    expect((await c.getTask(started.task.taskId)).status).toBe('working');
    const cancelled = await c.cancelTask(started.task.taskId);
    expect(cancelled.status).toBe('cancelled');
    const onboard = await c.callTool('onboard');
    expect(onboard.content).toEqual([{ type: 'text', text: 'Di onboarded' }]);
  });
});

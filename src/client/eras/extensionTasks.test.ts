/**
 * toolwire's client and the tasks extension: a call the server makes a task is followed to its
 * end inside `callTool` (polls, input answered through the handlers by tasks/update, a cancel
 * when the call is aborted), against toolwire's server.
 */
import { describe, expect, it } from 'vitest';
import { connect } from '../../../test/support/harness.js';
import { sleep } from '../../../test/support/scriptedTransport.js';
import { ErrorCode, RpcError } from '../../jsonrpc/errors.js';
import type { JsonRpcMessage } from '../../jsonrpc/types.js';
import { McpServer } from '../../server/mcpServer.js';
import type { ClientOptions } from '../clientOptions.js';

function server() {
  const s = new McpServer({ name: 'tasks', version: '1' }, { tasks: { pollIntervalMs: 10 } });
  let cancelled = 0;
  s.registerTool('quick', { execution: { taskSupport: 'required' } }, () => 'done');
  s.registerTool('steps', { execution: { taskSupport: 'optional' } }, async (_a, ctx) => {
    ctx.progress(1, { total: 2 });
    await sleep(5);
    ctx.progress(2, { total: 2 });
    return 'stepped';
  });
  s.registerTool('failing', { execution: { taskSupport: 'required' } }, () => ({
    content: [{ type: 'text' as const, text: 'no luck' }],
    isError: true,
  }));
  s.registerTool('broken', { execution: { taskSupport: 'required' } }, () => {
    throw new RpcError(ErrorCode.InternalError, 'upstream refused');
  });
  s.registerTool('ask', { execution: { taskSupport: 'required' } }, async (_a, { elicit }) => {
    const answer = await elicit({
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    return `Hello, ${String(answer.content?.['name'])}!`;
  });
  s.registerTool('forever', { execution: { taskSupport: 'required' } }, (_a, { signal }) => {
    return new Promise<string>((_resolve, reject) =>
      signal.addEventListener('abort', () => {
        cancelled++;
        reject(signal.reason as Error);
      }),
    );
  });
  return { s, cancelled: () => cancelled };
}

/**
 * A client on a 2026 connection through the test harness: every message both sides send is
 * checked after the test, the tasks extension's against its own schema.
 */
async function client(s: McpServer, options: ClientOptions = {}) {
  const connected = await connect(s, { era: '2026', client: options });
  const sent = connected.clientSent as JsonRpcMessage[];
  const methods = () => sent.flatMap((m) => ('method' in m ? [m.method] : []));
  return { c: connected.client, sent, methods };
}

describe('the tasks extension in the client', () => {
  it('a task-only tool: refused undeclared (-32021), sent once more declaring the extension, followed to its result', async () => {
    const { s } = server();
    const { c, sent } = await client(s);
    const result = await c.callTool('quick');
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(result).not.toHaveProperty('resultType');
    const calls = sent.filter(
      (m) => 'method' in m && m.method === 'tools/call',
    ) as unknown as Array<{ params: { _meta: Record<string, { extensions?: object }> } }>;
    const extensionsOf = (i: number) =>
      calls[i]?.params._meta['io.modelcontextprotocol/clientCapabilities']?.extensions;
    expect(calls).toHaveLength(2);
    expect(extensionsOf(0)).toBeUndefined();
    expect(extensionsOf(1)).toEqual({ 'io.modelcontextprotocol/tasks': {} });
    // Heard through a listen for the task (notifications/tasks), so no poll was needed.
    const listen = sent.find((m) => 'method' in m && m.method === 'subscriptions/listen') as
      { params: { notifications: { taskIds: string[] } } } | undefined;
    expect(listen?.params.notifications.taskIds).toHaveLength(1);
    await c.close();
  });

  it('an optional tool runs as a plain call (with its progress) unless the call asks for a task', async () => {
    const { s } = server();
    const { c, methods } = await client(s);
    const progress: number[] = [];
    const plain = await c.callTool('steps', {}, { onprogress: (p) => progress.push(p.progress) });
    expect(plain.content).toEqual([{ type: 'text', text: 'stepped' }]);
    expect(progress).toEqual([1, 2]);
    expect(methods()).not.toContain('subscriptions/listen');
    const statuses: string[] = [];
    const asTask = await c.callTool(
      'steps',
      {},
      { task: true, ontaskstatus: (t) => statuses.push(t.status) },
    );
    expect(asTask.content).toEqual([{ type: 'text', text: 'stepped' }]);
    expect(statuses).toEqual(['working', 'completed']);
    await c.close();
  });

  it('returns an isError result; rejects with the JSON-RPC error of a failed task', async () => {
    const { s } = server();
    const { c } = await client(s);
    expect(await c.callTool('failing')).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'no luck' }],
    });
    await expect(c.callTool('broken')).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: 'upstream refused',
    });
    await c.close();
  });

  it("answers a task's request for input through the elicitation handler, once", async () => {
    const { s } = server();
    const asked: string[] = [];
    const { c, methods } = await client(s, {
      handlers: {
        elicitation: ({ message }) => {
          asked.push(message);
          return { action: 'accept', content: { name: 'Ada' } };
        },
      },
    });
    expect((await c.callTool('ask')).content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    expect(asked).toEqual(['Name?']);
    expect(methods().filter((m) => m === 'tasks/update')).toHaveLength(1);
    await c.close();
  });

  it('cancels the task when the call is aborted', async () => {
    const { s, cancelled } = server();
    const { c, methods } = await client(s);
    const controller = new AbortController();
    const call = c.callTool('forever', {}, { signal: controller.signal });
    await sleep(50);
    controller.abort(new Error('not needed any more'));
    await expect(call).rejects.toThrow();
    for (let i = 0; i < 100 && cancelled() === 0; i++) await sleep(10);
    expect(methods()).toContain('tasks/cancel');
    expect(cancelled()).toBe(1);
    await c.close();
  });

  it('without the extension (tasksExtension: false) a task-only tool is refused with -32021', async () => {
    const { s } = server();
    const { c } = await client(s, { tasksExtension: false });
    await expect(c.callTool('quick')).rejects.toMatchObject({ code: -32021 });
    await c.close();
  });
});

describe('a server that asks without end', () => {
  it('is answered at most 128 times in one task, then the call fails and the task is cancelled', async () => {
    const s = new McpServer({ name: 'greedy', version: '1' }, { tasks: { pollIntervalMs: 5 } });
    let cancelled = false;
    s.registerTool('greedy', { execution: { taskSupport: 'required' } }, async (_a, ctx) => {
      try {
        for (let i = 0; i < 1000 && !ctx.signal.aborted; i++)
          await ctx.elicit(
            { message: `Question ${i}?`, requestedSchema: { type: 'object', properties: {} } },
            { inputKey: `q${i}` },
          );
      } finally {
        cancelled = ctx.signal.aborted;
      }
      return 'never';
    });
    let asked = 0;
    const { c } = await client(s, {
      handlers: {
        elicitation: () => {
          asked++;
          return { action: 'accept', content: {} };
        },
      },
    });
    await expect(c.callTool('greedy')).rejects.toMatchObject({ code: 'invalid-response' });
    expect(asked).toBe(128);
    for (let i = 0; i < 100 && !cancelled; i++) await sleep(10);
    expect(cancelled).toBe(true);
    await c.close();
  });

  it('is not answered past 32 requests in one round', async () => {
    const s = new McpServer({ name: 'greedy', version: '1' });
    s.registerTool('many', {}, async (_a, { elicit }) => {
      const asks = Array.from({ length: 40 }, (_, i) =>
        elicit({ message: `Question ${i}?`, requestedSchema: { type: 'object', properties: {} } }),
      );
      await Promise.all(asks);
      return 'never';
    });
    let asked = 0;
    const { c } = await client(s, {
      handlers: {
        elicitation: () => {
          asked++;
          return { action: 'accept', content: {} };
        },
      },
    });
    await expect(c.callTool('many')).rejects.toMatchObject({ code: 'invalid-response' });
    expect(asked).toBe(0);
    await c.close();
  });
});

describe('a call given up while its task is being created (CI found the task orphaned)', () => {
  it('still reads the answer, cancels the task it names, then rejects as aborted', async () => {
    const s = new McpServer({ name: 'race', version: '1' }, { tasks: { pollIntervalMs: 10 } });
    const controller = new AbortController();
    let stopped = false;
    s.registerTool('job', { execution: { taskSupport: 'required' } }, (_a, { signal }) => {
      // The task runs before its CreateTaskResult reaches the client: the caller gives up now.
      controller.abort(new Error('Ctrl-C'));
      return new Promise<string>((resolve) =>
        signal.addEventListener('abort', () => {
          stopped = true;
          resolve('stopped');
        }),
      );
    });
    const { c, methods } = await client(s);
    await expect(c.callTool('job', {}, { signal: controller.signal })).rejects.toMatchObject({
      code: 'aborted',
    });
    for (let i = 0; i < 100 && !stopped; i++) await sleep(10);
    expect(stopped).toBe(true);
    expect(methods()).toContain('tasks/cancel');
    await c.close();
  });
});

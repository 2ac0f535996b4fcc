/**
 * The tasks extension on a 2026 connection: negotiation per request, creation, polling, input by
 * tasks/update, cancellation, errors; each message checked against the extension's schema.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedTransport, sleep } from '../../../../../test/support/scriptedTransport.js';
import { validateTasksExtension } from '../../../../../test/support/specSchemas.js';
import { ErrorCode, RpcError } from '../../../../jsonrpc/errors.js';
import type { JsonObject } from '../../../../jsonrpc/types.js';
import { McpServer } from '../../../mcpServer.js';

const EXT = 'io.modelcontextprotocol/tasks';
const meta = (capabilities: JsonObject) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});
const WITH_EXT = meta({ elicitation: {}, extensions: { [EXT]: {} } });
const WITHOUT = meta({ elicitation: {} });

function server() {
  const s = new McpServer({ name: 'ext', version: '1' }, { tasks: { pollIntervalMs: 5 } });
  s.registerTool(
    'greet',
    { inputSchema: z.object({ name: z.string() }) },
    ({ name }) => `Hello, ${name}!`,
  );
  s.registerTool('slow', { execution: { taskSupport: 'optional' } }, (_a, { signal }) => {
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => resolve('slept'), 10_000);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      });
    });
  });
  s.registerTool('quick', { execution: { taskSupport: 'required' } }, () => 'done');
  s.registerTool('failing', { execution: { taskSupport: 'required' } }, () => ({
    content: [{ type: 'text' as const, text: 'no luck' }],
    isError: true,
  }));
  s.registerTool('protocolError', { execution: { taskSupport: 'required' } }, () => {
    throw new RpcError(ErrorCode.InternalError, 'upstream refused');
  });
  s.registerTool('twoQuestions', { execution: { taskSupport: 'required' } }, async (_a, ctx) => {
    const ask = (key: string) =>
      ctx.elicit(
        {
          message: `Your ${key}?`,
          requestedSchema: { type: 'object', properties: { v: { type: 'string' } } },
        },
        { inputKey: key },
      );
    const [a, b] = await Promise.all([ask('first'), ask('second')]);
    return `${String(a.content?.['v'])} ${String(b.content?.['v'])}`;
  });
  s.registerTool('approve', { execution: { taskSupport: 'required' } }, async (_a, { confirm }) =>
    (await confirm('Delete it?')) ? 'deleted' : 'kept',
  );
  return s;
}

async function open() {
  const s = server();
  const transport = new ScriptedTransport();
  await s.connect(transport);
  let id = 0;
  const request = async (method: string, params: JsonObject, m = WITH_EXT) => {
    transport.inject({ jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta: m } });
    return (await transport.next()) as unknown as JsonObject;
  };
  const result = async (method: string, params: JsonObject, m = WITH_EXT) => {
    const answer = await request(method, params, m);
    if (answer['error'] !== undefined) throw new Error(JSON.stringify(answer['error']));
    return answer['result'] as JsonObject;
  };
  /** tasks/get until `done` says so (at most 3 s). */
  const pollUntil = async (taskId: string, done: (task: JsonObject) => boolean) => {
    for (let i = 0; i < 300; i++) {
      const task = await result('tasks/get', { taskId });
      expect(validateTasksExtension('GetTaskResult', task)).toEqual([]);
      if (done(task)) return task;
      await sleep(10);
    }
    throw new Error(`task ${taskId} never got there`);
  };
  return { s, request, result, pollUntil };
}

const terminal = (t: JsonObject) =>
  ['completed', 'failed', 'cancelled'].includes(String(t['status']));

describe('the tasks extension (2026-07-28)', () => {
  it('is offered in server/discover', async () => {
    const { result } = await open();
    const discovered = await result('server/discover', {});
    expect(discovered['capabilities']).toMatchObject({ extensions: { [EXT]: {} } });
    expect(discovered['capabilities']).not.toHaveProperty('tasks');
  });

  it('creates a task for a declaring request, durable at once, and completes it with the result', async () => {
    const { result, pollUntil } = await open();
    const created = await result('tools/call', { name: 'quick', arguments: {} });
    expect(validateTasksExtension('CreateTaskResult', created)).toEqual([]);
    expect(created).toEqual({
      resultType: 'task',
      taskId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'working',
      createdAt: expect.any(String),
      lastUpdatedAt: expect.any(String),
      ttlMs: 600_000,
      pollIntervalMs: 5,
      _meta: expect.any(Object),
    });
    const taskId = String(created['taskId']);
    const done = await pollUntil(taskId, terminal);
    expect(done).toMatchObject({
      resultType: 'complete',
      taskId,
      status: 'completed',
      result: { content: [{ type: 'text', text: 'done' }], resultType: 'complete' },
    });
    expect(JSON.stringify(done)).not.toContain('related-task');
  });

  it('runs plain calls for a request without the extension; -32021 for a task-only tool', async () => {
    const { request, result } = await open();
    expect(
      await result('tools/call', { name: 'greet', arguments: { name: 'Ada' } }, WITHOUT),
    ).toMatchObject({
      content: [{ type: 'text', text: 'Hello, Ada!' }],
      resultType: 'complete',
    });
    // A 2025-11-25 task request is no task in this era: the call runs as it is.
    expect(
      await result('tools/call', { name: 'greet', arguments: { name: 'Bo' }, task: { ttl: 1 } }),
    ).toMatchObject({ content: [{ type: 'text', text: 'Hello, Bo!' }] });
    const refused = await request('tools/call', { name: 'quick', arguments: {} }, WITHOUT);
    expect(refused['error']).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [EXT]: {} } } },
    });
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const answer = await request(method, { taskId: 'gate-test', inputResponses: {} }, WITHOUT);
      expect(answer['error'], method).toMatchObject({ code: -32021 });
    }
    for (const method of ['tasks/result', 'tasks/list']) {
      expect((await request(method, { taskId: 'x' }))['error'], method).toMatchObject({
        code: -32601,
      });
    }
  });

  it('completes a task whose result is isError; fails one whose run ended in a JSON-RPC error', async () => {
    const { result, pollUntil } = await open();
    const tool = await result('tools/call', { name: 'failing', arguments: {} });
    expect(await pollUntil(String(tool['taskId']), terminal)).toMatchObject({
      status: 'completed',
      result: { isError: true, content: [{ type: 'text', text: 'no luck' }] },
    });
    const protocol = await result('tools/call', { name: 'protocolError', arguments: {} });
    const failed = await pollUntil(String(protocol['taskId']), terminal);
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'upstream refused' },
      statusMessage: 'upstream refused',
    });
    expect(failed).not.toHaveProperty('result');
  });

  it('asks for input through the task: input_required with every request, answered by tasks/update, partly then fully', async () => {
    const { result, request, pollUntil } = await open();
    const created = await result('tools/call', { name: 'twoQuestions', arguments: {} });
    const taskId = String(created['taskId']);
    const asking = await pollUntil(
      taskId,
      (t) => Object.keys((t['inputRequests'] as JsonObject | undefined) ?? {}).length === 2,
    );
    expect(asking['status']).toBe('input_required');
    expect((asking['inputRequests'] as JsonObject)['first']).toEqual({
      method: 'elicitation/create',
      params: { message: 'Your first?', requestedSchema: expect.any(Object) },
    });
    const ack = await result('tasks/update', {
      taskId,
      inputResponses: {
        first: { action: 'accept', content: { v: 'one' } },
        'unknown-key': { ignored: true },
      },
    });
    expect(ack).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    expect(validateTasksExtension('UpdateTaskResult', ack)).toEqual([]);
    const partial = await result('tasks/get', { taskId });
    expect(partial['status']).toBe('input_required');
    expect(Object.keys(partial['inputRequests'] as JsonObject)).toEqual(['second']);
    // A malformed answer to an outstanding key is refused.
    const malformed = await request('tasks/update', {
      taskId,
      inputResponses: { second: { nope: 1 } },
    });
    expect(malformed['error']).toMatchObject({ code: -32602 });
    await result('tasks/update', {
      taskId,
      inputResponses: { second: { action: 'accept', content: { v: 'two' } } },
    });
    expect(await pollUntil(taskId, terminal)).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'one two' }] },
    });
  });

  it('an approval inside a task is an input request like any other, answered by tasks/update', async () => {
    const { result, pollUntil } = await open();
    const created = await result('tools/call', { name: 'approve', arguments: {} });
    const taskId = String(created['taskId']);
    const asking = await pollUntil(taskId, (t) => t['status'] === 'input_required');
    const requests = asking['inputRequests'] as JsonObject;
    expect(Object.values(requests)).toEqual([
      {
        method: 'elicitation/create',
        params: { message: 'Delete it?', requestedSchema: { type: 'object', properties: {} } },
      },
    ]);
    const [key] = Object.keys(requests);
    await result('tasks/update', {
      taskId,
      inputResponses: { [key!]: { action: 'accept', content: {} } },
    });
    expect(await pollUntil(taskId, terminal)).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'deleted' }] },
    });
    // The key is spent: answering it again changes nothing.
    await result('tasks/update', { taskId, inputResponses: { [key!]: { action: 'decline' } } });
    expect((await result('tasks/get', { taskId }))['status']).toBe('completed');
  });

  it('cancels a running task (acknowledged, then cancelled) and acknowledges a cancel of an ended one', async () => {
    const { result, pollUntil, request } = await open();
    const created = await result('tools/call', { name: 'slow', arguments: {} });
    const taskId = String(created['taskId']);
    const ack = await result('tasks/cancel', { taskId });
    expect(ack).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    expect(validateTasksExtension('CancelTaskResult', ack)).toEqual([]);
    expect(await pollUntil(taskId, terminal)).toMatchObject({ status: 'cancelled' });
    expect(await result('tasks/cancel', { taskId })).toMatchObject({ resultType: 'complete' });
    const unknown = await request('tasks/get', { taskId: 'tasks-conformance-nonexistent-12345' });
    expect(unknown['error']).toMatchObject({ code: -32602 });
  });

  it("tells a listen that names taskIds each change of the caller's own tasks (notifications/tasks)", async () => {
    const s = server();
    const transport = new ScriptedTransport();
    await s.connect(transport);
    let id = 0;
    const send = (method: string, params: JsonObject, m = WITH_EXT) =>
      transport.inject({ jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta: m } });
    send('tools/call', { name: 'twoQuestions', arguments: {} });
    const created = ((await transport.next()) as unknown as JsonObject)['result'] as JsonObject;
    const taskId = String(created['taskId']);
    send('subscriptions/listen', { notifications: { taskIds: [taskId, 'someone-elses-task'] } });
    const listenId = id;
    const ack = (await transport.next()) as unknown as JsonObject;
    expect(ack).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [taskId] } },
    });
    // Then the task's state, whole, tagged with the subscription, until it ends.
    const seen: JsonObject[] = [];
    for (;;) {
      const message = (await transport.next()) as unknown as JsonObject;
      if (message['id'] !== undefined) continue; // the answer to the tasks/update
      expect(message['method']).toBe('notifications/tasks');
      const params = message['params'] as JsonObject;
      expect(validateTasksExtension('TaskStatusNotification', message)).toEqual([]);
      expect(params['_meta']).toEqual({ 'io.modelcontextprotocol/subscriptionId': listenId });
      seen.push(params);
      const requests = Object.keys((params['inputRequests'] as JsonObject | undefined) ?? {});
      if (params['status'] === 'input_required' && requests.length === 2) {
        send('tasks/update', {
          taskId,
          inputResponses: {
            first: { action: 'accept', content: { v: 'a' } },
            second: { action: 'accept', content: { v: 'b' } },
          },
        });
      }
      if (params['status'] === 'completed') break;
    }
    expect(seen.at(-1)).toMatchObject({
      taskId,
      result: { content: [{ type: 'text', text: 'a b' }] },
    });
    // Taking no task ids without the extension is -32021.
    send('subscriptions/listen', { notifications: { taskIds: [taskId] } }, WITHOUT);
    let refusal: JsonObject | undefined;
    for (let i = 0; i < 5 && refusal === undefined; i++) {
      const message = (await transport.next()) as unknown as JsonObject;
      if (message['id'] === id) refusal = message;
    }
    expect(refusal?.['error']).toMatchObject({ code: -32021 });
    await s.close();
  });
});

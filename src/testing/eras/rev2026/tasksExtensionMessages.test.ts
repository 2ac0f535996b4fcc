/**
 * The routing of a 2026-07-28 connection's messages with the shipped schemas: the tasks
 * extension's against the extension's schema, everything else against the revision's, as before.
 */
import { describe, expect, it } from 'vitest';
import { describeProblem } from '../../wireViolation.js';
import { revisionCheck } from '../revisionChecks.js';
import { tasksExtensionSchema } from './tasksExtensionSchema.js';

const TASK_ID = '73baff90-8eb7-4db7-91c3-9dddbe12c708';
const task = {
  taskId: TASK_ID,
  status: 'working',
  createdAt: '2026-11-28T12:43:23.759Z',
  lastUpdatedAt: '2026-11-28T12:43:23.759Z',
  ttlMs: 600000,
  pollIntervalMs: 5,
};
const serverMeta = { 'io.modelcontextprotocol/serverInfo': { name: 't', version: '1' } };
const listenMeta = { 'io.modelcontextprotocol/subscriptionId': 5 };

/** The requests the client sent, by id: what each response answers. */
const SENT: Readonly<Record<string, string>> = {
  '1': 'tools/call',
  '2': 'tasks/get',
  '3': 'tasks/update',
  '4': 'tasks/cancel',
  '5': 'tools/list',
};

async function problemsOf(message: unknown) {
  const check = await revisionCheck('2026-07-28');
  return check.problems(message, (id) => SENT[String(id)]);
}

const response = (id: number, result: object) => ({ jsonrpc: '2.0', id, result });
const acknowledged = (notifications: object) => ({
  jsonrpc: '2.0',
  method: 'notifications/subscriptions/acknowledged',
  params: { _meta: listenMeta, notifications },
});

/** Messages toolwire's server sends on a 2026 connection with the extension (as captured). */
const VALID: Readonly<Record<string, unknown>> = {
  'tools/call answered with a task': response(1, {
    resultType: 'task',
    ...task,
    _meta: serverMeta,
  }),
  'tasks/get asking for input': response(2, {
    ...task,
    status: 'input_required',
    inputRequests: {
      e0: {
        method: 'elicitation/create',
        params: { message: 'Name?', requestedSchema: { type: 'object', properties: {} } },
      },
    },
    resultType: 'complete',
    _meta: serverMeta,
  }),
  'tasks/update': response(3, { resultType: 'complete', _meta: serverMeta }),
  'tasks/cancel': response(4, { resultType: 'complete', _meta: serverMeta }),
  'notifications/tasks': {
    jsonrpc: '2.0',
    method: 'notifications/tasks',
    params: { ...task, _meta: listenMeta },
  },
  'a listen acknowledged with taskIds': acknowledged({
    taskIds: [TASK_ID],
    toolsListChanged: true,
  }),
  'a listen asking for taskIds (the client sends it)': {
    jsonrpc: '2.0',
    id: 6,
    method: 'subscriptions/listen',
    params: {
      notifications: { taskIds: [TASK_ID] },
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {
          extensions: { 'io.modelcontextprotocol/tasks': {} },
        },
      },
    },
  },
  'a tasks/get request (the client sends it)': {
    jsonrpc: '2.0',
    id: 2,
    method: 'tasks/get',
    params: { taskId: TASK_ID },
  },
};

describe('a 2026-07-28 message of the tasks extension', () => {
  for (const [name, message] of Object.entries(VALID)) {
    it(`passes: ${name}`, async () => {
      expect((await problemsOf(message)).map(describeProblem)).toEqual([]);
    });
  }

  it('fails against the extension: a tasks/get result whose ttlMs is a string', async () => {
    const problems = await problemsOf(
      response(2, { ...task, ttlMs: '600000', resultType: 'complete' }),
    );
    expect(problems).toContainEqual(
      expect.objectContaining({ definition: 'GetTaskResult', pointer: '/result/ttlMs' }),
    );
  });

  it('fails: a task without its id, a status the extension lacks, taskIds that are not text', async () => {
    const { taskId: _taskId, ...withoutId } = task;
    expect(await problemsOf(response(1, { resultType: 'task', ...withoutId }))).toContainEqual(
      expect.objectContaining({
        definition: 'CreateTaskResult',
        pointer: '/result',
        params: { missingProperty: 'taskId' },
      }),
    );
    const sleeping = {
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: { ...task, status: 'sleeping' },
    };
    expect(await problemsOf(sleeping)).toContainEqual(
      expect.objectContaining({ definition: 'TaskStatusNotification', pointer: '/params/status' }),
    );
    expect(await problemsOf(acknowledged({ taskIds: [7] }))).toEqual([
      expect.objectContaining({
        definition: 'TaskSubscriptionAcknowledgedNotifications',
        pointer: '/params/notifications/taskIds/0',
      }),
    ]);
  });

  it("still checks against the revision: a result's envelope, a listen's other filters", async () => {
    const envelope = { ...response(3, { resultType: 'complete' }), jsonrpc: '1.0' };
    expect(await problemsOf(envelope)).toContainEqual(
      expect.objectContaining({ definition: 'JSONRPCResultResponse', pointer: '/jsonrpc' }),
    );
    expect(await problemsOf(acknowledged({ taskIds: [TASK_ID], bogus: true }))).toEqual([
      expect.objectContaining({
        definition: 'SubscriptionsAcknowledgedNotification',
        pointer: '/params/notifications',
        params: { additionalProperty: 'bogus' },
      }),
    ]);
  });
});

describe('any other 2026-07-28 message', () => {
  it('is checked against the revision, strict, as before', async () => {
    // A plain call result is the revision's CallToolResult, closed.
    const plain = response(1, { content: [], resultType: 'complete', taskId: TASK_ID });
    expect(await problemsOf(plain)).toEqual([
      expect.objectContaining({
        definition: 'CallToolResult',
        pointer: '/result',
        params: { additionalProperty: 'taskId' },
      }),
    ]);
    const listed = response(5, { tools: [], resultType: 'complete', extra: 1 });
    expect(await problemsOf(listed)).toContainEqual(
      expect.objectContaining({
        definition: 'ListToolsResult',
        params: { additionalProperty: 'extra' },
      }),
    );
    // A method neither defines.
    expect(
      (await problemsOf({ jsonrpc: '2.0', id: 9, method: 'tasks/list' })).map(describeProblem),
    ).toEqual(['(the message): request tasks/list does not exist in 2026-07-28 (JSONRPCMessage)']);
  });
});

describe('the schemas', () => {
  it('are built once, for every connection at 2026-07-28', async () => {
    const [a, b] = [await revisionCheck('2026-07-28'), await revisionCheck('2026-07-28')];
    expect(a.schema).toBe(b.schema);
    expect(await tasksExtensionSchema()).toBe(await tasksExtensionSchema());
  });

  it('read the method names from the extension schema', async () => {
    const extension = await tasksExtensionSchema();
    expect(
      ['GetTaskRequest', 'UpdateTaskRequest', 'CancelTaskRequest', 'TaskStatusNotification'].map(
        (d) => extension.methodOf(d),
      ),
    ).toEqual(['tasks/get', 'tasks/update', 'tasks/cancel', 'notifications/tasks']);
  });
});

/**
 * One store, both task generations: one server, one caller (the same identity) with a 2025-11-25
 * task and an extension task side by side; each generation's methods see only their own.
 */
import { describe, expect, it } from 'vitest';
import { connect } from '../../../../../test/support/harness.js';
import { ScriptedTransport } from '../../../../../test/support/scriptedTransport.js';
import type { JsonObject } from '../../../../jsonrpc/types.js';
import { McpServer } from '../../../mcpServer.js';

type Raw = { request: (method: string, params?: JsonObject) => Promise<JsonObject> };
const raw = (c: { client: unknown }): Raw => (c.client as { connection: Raw }).connection;

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {
    extensions: { 'io.modelcontextprotocol/tasks': {} },
  },
};

describe('one task store for both generations', () => {
  it('keeps a 2025 task and an extension task of one caller apart: each era sees only its own', async () => {
    const server = new McpServer({ name: 'both', version: '1' });
    server.registerTool('job', { execution: { taskSupport: 'optional' } }, () => 'done');
    const alice = { id: 'alice' };
    const legacy = raw(await connect(server, { identity: alice }));
    const old = (await legacy.request('tools/call', { name: 'job', arguments: {}, task: {} }))[
      'task'
    ] as JsonObject;

    const transport = new ScriptedTransport();
    await server.connect(transport, { identity: alice });
    let id = 0;
    const modern = async (method: string, params: JsonObject) => {
      transport.inject({ jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta: META } });
      return (await transport.next()) as unknown as JsonObject;
    };
    const created = (await modern('tools/call', { name: 'job', arguments: {} }))[
      'result'
    ] as JsonObject;
    expect(created['resultType']).toBe('task');

    // Each generation finds its own task and not the other's (-32602, as an unknown id).
    expect((await modern('tasks/get', { taskId: created['taskId'] }))['result']).toMatchObject({
      taskId: created['taskId'],
    });
    expect((await modern('tasks/get', { taskId: old['taskId'] }))['error']).toMatchObject({
      code: -32602,
    });
    expect(await legacy.request('tasks/get', { taskId: old['taskId'] as string })).toMatchObject({
      taskId: old['taskId'],
      ttl: expect.any(Number),
    });
    await expect(
      legacy.request('tasks/get', { taskId: created['taskId'] as string }),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(
      legacy.request('tasks/cancel', { taskId: created['taskId'] as string }),
    ).rejects.toMatchObject({ code: -32602 });
    const listed = (await legacy.request('tasks/list', {}))['tasks'] as JsonObject[];
    expect(listed.map((t) => t['taskId'])).toEqual([old['taskId']]);
    await server.close();
  });
});

describe('extension tasks belong to who created them', () => {
  it('another OAuth client of the same person, or another person, can neither read, answer, cancel nor watch them', async () => {
    const server = new McpServer({ name: 'owners', version: '1' });
    server.registerTool('wait', { execution: { taskSupport: 'required' } }, (_a, { signal }) => {
      return new Promise<string>((resolve) =>
        signal.addEventListener('abort', () => resolve('stopped')),
      );
    });
    const person = { issuer: 'https://as.example', subject: 'ada' };
    const as = async (identity: { id: string; clientId: string; subject?: string }) => {
      const transport = new ScriptedTransport();
      await server.connect(transport, {
        identity: { ...person, ...identity },
      });
      let id = 0;
      return async (method: string, params: JsonObject) => {
        transport.inject({ jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta: META } });
        return (await transport.next()) as unknown as JsonObject;
      };
    };
    const owner = await as({ id: 'ada', clientId: 'notes-app' });
    const otherApp = await as({ id: 'ada', clientId: 'mail-app' });
    const otherPerson = await as({ id: 'bo', clientId: 'notes-app', subject: 'bo' });
    const created = (await owner('tools/call', { name: 'wait', arguments: {} }))[
      'result'
    ] as JsonObject;
    const taskId = created['taskId'] as string;
    for (const stranger of [otherApp, otherPerson]) {
      for (const [method, params] of [
        ['tasks/get', { taskId }],
        ['tasks/update', { taskId, inputResponses: {} }],
        ['tasks/cancel', { taskId }],
      ] as const) {
        const answer = await stranger(method, params);
        expect(answer['error'], method).toMatchObject({ code: -32602 });
      }
      // A listen naming it is agreed to none of it.
      const listen = await stranger('subscriptions/listen', {
        notifications: { taskIds: [taskId] },
      });
      expect(listen).toMatchObject({
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { taskIds: [] } },
      });
    }
    const mine = (await owner('tasks/get', { taskId }))['result'] as JsonObject;
    expect(mine['status']).toBe('working');
    await owner('tasks/cancel', { taskId });
    await server.close();
  });
});

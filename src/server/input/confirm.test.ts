import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedTransport } from '../../../test/support/scriptedTransport.js';
import { McpClient } from '../../client/mcpClient.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import { createLinkedPair } from '../../transports/memory.js';
import { McpServer } from '../mcpServer.js';
import { MemorySpentStates } from './spentStates.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
};

/** A server whose `wipe` tool deletes only what the user approves, counting its deletions. */
function server() {
  const deleted: string[] = [];
  const s = new McpServer(
    { name: 'approvals', version: '1' },
    { inputRoundTrips: { secret: 'a test secret that is long enough, 32+' } },
  );
  s.registerTool(
    'wipe',
    { inputSchema: z.object({ path: z.string() }), annotations: { destructiveHint: true } },
    async ({ path }, { confirm }) => {
      if (!(await confirm(`Delete everything under ${path}?`))) return 'kept';
      deleted.push(path);
      return `deleted ${path}`;
    },
  );
  return { s, deleted };
}

async function raw(s: McpServer) {
  const transport = new ScriptedTransport();
  await s.connect(transport);
  let id = 0;
  return async (params: JsonObject): Promise<JsonObject> => {
    transport.inject({
      jsonrpc: '2.0',
      id: ++id,
      method: 'tools/call',
      params: { ...params, _meta: META },
    });
    return (await transport.next()) as unknown as JsonObject;
  };
}

const textOf = (message: JsonObject) =>
  ((message['result'] as { content: Array<{ text: string }> }).content[0] as { text: string }).text;

describe('ctx.confirm', () => {
  it('2026: asks by round trip, and the approved work runs once', async () => {
    const { s, deleted } = server();
    const [a, b] = createLinkedPair();
    await s.connect(b);
    const asked: string[] = [];
    const client = new McpClient(
      { name: 'c', version: '1' },
      {
        protocolEra: 'modern',
        handlers: {
          elicitation: ({ message }) => {
            asked.push(message);
            return { action: 'accept', content: {} };
          },
        },
      },
    );
    await client.connect(a);
    const result = await client.callTool('wipe', { path: '/tmp/x' });
    expect(result.content).toEqual([{ type: 'text', text: 'deleted /tmp/x' }]);
    expect(asked).toEqual(['Delete everything under /tmp/x?']);
    expect(deleted).toEqual(['/tmp/x']);
    await client.close();
  });

  it('2026: the approved retry sent again is refused (its state is spent), and nothing runs twice', async () => {
    const { s, deleted } = server();
    const call = await raw(s);
    const first = (await call({ name: 'wipe', arguments: { path: '/data' } }))[
      'result'
    ] as JsonObject;
    expect(first['resultType']).toBe('input_required');
    const [key] = Object.keys(first['inputRequests'] as JsonObject);
    const retry = {
      name: 'wipe',
      arguments: { path: '/data' },
      inputResponses: { [key!]: { action: 'accept', content: {} } },
      requestState: first['requestState'],
    };
    expect(textOf(await call(retry))).toBe('deleted /data');
    const replay = await call(retry);
    expect(replay['result']).toMatchObject({ isError: true, resultType: 'complete' });
    expect(textOf(replay)).toMatch(/This approval was already used/);
    expect(deleted).toEqual(['/data']);
  });

  it('2026: a first request that claims the approval is asked again, not obeyed', async () => {
    const { s, deleted } = server();
    const call = await raw(s);
    const first = (await call({ name: 'wipe', arguments: { path: '/data' } }))[
      'result'
    ] as JsonObject;
    const [key] = Object.keys(first['inputRequests'] as JsonObject);
    const forged = await call({
      name: 'wipe',
      arguments: { path: '/data' },
      inputResponses: { [key!]: { action: 'accept', content: {} } },
    });
    expect((forged['result'] as JsonObject)['resultType']).toBe('input_required');
    expect(deleted).toEqual([]);
  });

  it('2026: a declined approval runs nothing and spends nothing of use', async () => {
    const { s, deleted } = server();
    const call = await raw(s);
    const first = (await call({ name: 'wipe', arguments: { path: '/data' } }))[
      'result'
    ] as JsonObject;
    const [key] = Object.keys(first['inputRequests'] as JsonObject);
    const declined = await call({
      name: 'wipe',
      arguments: { path: '/data' },
      inputResponses: { [key!]: { action: 'decline' } },
      requestState: first['requestState'],
    });
    expect(textOf(declined)).toBe('kept');
    expect(deleted).toEqual([]);
  });

  it('2025: asks by a pushed elicitation', async () => {
    const { s, deleted } = server();
    const [a, b] = createLinkedPair();
    await s.connect(b);
    const client = new McpClient(
      { name: 'c', version: '1' },
      {
        protocolEra: 'legacy',
        handlers: { elicitation: () => ({ action: 'decline' }) },
      },
    );
    await client.connect(a);
    expect(await client.callTool('wipe', { path: '/x' })).toMatchObject({
      content: [{ text: 'kept' }],
    });
    expect(deleted).toEqual([]);
    await client.close();
  });
});

describe('MemorySpentStates', () => {
  it('spends a state once until it expires, and refuses rather than forget one unexpired', () => {
    let now = 1_000;
    const store = new MemorySpentStates(2, () => now);
    expect(store.spend('a', 2_000)).toBe(true);
    expect(store.spend('a', 2_000)).toBe(false);
    expect(store.spend('b', 1_500)).toBe(true);
    // Full of unexpired states: a new one is refused (its approval is not granted).
    expect(store.spend('c', 3_000)).toBe(false);
    now = 1_600; // b expired: swept to make room
    expect(store.spend('c', 3_000)).toBe(true);
    expect(store.spend('a', 2_000)).toBe(false);
  });
});

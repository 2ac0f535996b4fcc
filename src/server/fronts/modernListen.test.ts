import { describe, expect, it } from 'vitest';
import { EventReader, post } from '../../../test/support/httpHarness.js';
import { ScriptedTransport, sleep } from '../../../test/support/scriptedTransport.js';
import { validateDefinition } from '../../../test/support/specSchemas.js';
import { createHttpHandler } from '../../http.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import { McpServer } from '../mcpServer.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';

function server(): McpServer {
  const s = new McpServer({ name: 'listen', version: '1' }, { listChangedDebounceMs: 1 });
  s.registerTool('first', {}, () => 'one');
  return s;
}

async function open(s: McpServer) {
  const transport = new ScriptedTransport();
  await s.connect(transport);
  const listen = (id: number | string, notifications: JsonObject) =>
    transport.inject({
      jsonrpc: '2.0',
      id,
      method: 'subscriptions/listen',
      params: { _meta: META, notifications },
    });
  const next = async (definition: string) => {
    const message = (await transport.next()) as unknown as JsonObject;
    expect(validateDefinition('2026-07-28', definition, message)).toEqual([]);
    return message;
  };
  return { transport, listen, next };
}

describe('subscriptions/listen', () => {
  it('acknowledges first with what it agreed to, then sends list_changed with the subscription id', async () => {
    const s = server();
    const { listen, next, transport } = await open(s);
    listen('L1', {
      toolsListChanged: true,
      promptsListChanged: true,
      resourceSubscriptions: ['x:/a'],
    });
    const ack = await next('SubscriptionsAcknowledgedNotification');
    expect(ack['params']).toEqual({
      _meta: { [SUBSCRIPTION]: 'L1' },
      notifications: { toolsListChanged: true },
    });
    s.registerTool('second', {}, () => 'two');
    const changed = await next('ToolListChangedNotification');
    expect(changed['params']).toEqual({ _meta: { [SUBSCRIPTION]: 'L1' } });
    expect(await transport.quiet()).toEqual([]);
  });

  it('sends nothing the listen did not ask for, and stops when the client cancels', async () => {
    const s = server();
    const { listen, next, transport } = await open(s);
    listen(1, {});
    expect((await next('SubscriptionsAcknowledgedNotification'))['params']).toMatchObject({
      notifications: {},
    });
    listen(2, { toolsListChanged: true });
    await next('SubscriptionsAcknowledgedNotification');
    transport.inject({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 2 },
    });
    await sleep(5);
    s.registerTool('second', {}, () => 'two');
    await sleep(20);
    // Neither listen hears the change: one did not ask, the other was cancelled (no response either).
    expect(await transport.quiet()).toEqual([]);
  });

  it('ends every listen with a complete response when the server closes', async () => {
    const s = server();
    const { listen, next } = await open(s);
    listen(7, { toolsListChanged: true });
    await next('SubscriptionsAcknowledgedNotification');
    const closing = s.close();
    const response = await next('SubscriptionsListenResultResponse');
    expect(response['result']).toMatchObject({
      resultType: 'complete',
      _meta: { [SUBSCRIPTION]: 7 },
    });
    await closing;
  });

  it('refuses a listen over the cap of open listens with -31429, never acknowledged', async () => {
    const s = new McpServer({ name: 'listen', version: '1' }, { listens: { perClient: 2 } });
    const { listen, next, transport } = await open(s);
    listen(1, { toolsListChanged: true });
    await next('SubscriptionsAcknowledgedNotification');
    listen(2, { toolsListChanged: true });
    await next('SubscriptionsAcknowledgedNotification');
    listen(3, { toolsListChanged: true });
    expect(await transport.next()).toMatchObject({
      id: 3,
      error: { code: -31429, data: { limit: 'listens', retryAfterMs: 1000 } },
    });
    // One ends: another may open.
    transport.inject({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1 },
    });
    await sleep(5);
    listen(4, { toolsListChanged: true });
    await next('SubscriptionsAcknowledgedNotification');
    await s.close();
  });

  it('refuses a listen without a filter with -32602', async () => {
    const { transport } = await open(server());
    transport.inject({
      jsonrpc: '2.0',
      id: 1,
      method: 'subscriptions/listen',
      params: { _meta: META },
    });
    expect(((await transport.next()) as unknown as JsonObject)['error']).toMatchObject({
      code: -32602,
    });
  });

  it('over HTTP: an SSE stream of the acknowledgement and the changes, ended by closing it', async () => {
    const s = server();
    const faults: unknown[] = [];
    const handler = createHttpHandler(s, { onerror: (e) => faults.push(e) });
    const body = {
      jsonrpc: '2.0',
      id: 'h1',
      method: 'subscriptions/listen',
      params: { _meta: META, notifications: { toolsListChanged: true } },
    };
    const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' };
    const response = await post(handler, body, headers);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = new EventReader(response);
    expect(await events.nextMessage()).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
    });
    s.registerTool('second', {}, () => 'two');
    expect(await events.nextMessage()).toMatchObject({
      method: 'notifications/tools/list_changed',
      params: { _meta: { [SUBSCRIPTION]: 'h1' } },
    });
    await events.cancel();
    s.registerTool('third', {}, () => 'three');
    await sleep(20);
    await s.close();
    expect(faults).toEqual([]);
  });
});

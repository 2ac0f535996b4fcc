/**
 * Issue 8: `update({})` (or an update that changes nothing a client can list) sent
 * `notifications/tools/list_changed`; and a tool's `_meta` could use keys reserved for MCP itself
 * (`io.modelcontextprotocol/...`), because `isReservedMetaKey` was never called.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { McpServer } from '../../src/server.js';
import { connect } from '../support/harness.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function watched() {
  const server = new McpServer({ name: 'reg', version: '1' }, { listChangedDebounceMs: 1 });
  const tool = server.registerTool(
    'greet',
    { description: 'Says hello', inputSchema: z.object({ name: z.string() }) },
    ({ name }) => `hello ${name}`,
  );
  const c = await connect(server);
  const count = () =>
    c.serverSent.filter(
      (m) => (m as { method?: string }).method === 'notifications/tools/list_changed',
    ).length;
  return { tool, c, count };
}

describe('only real changes send list_changed', () => {
  it('sends nothing for update({}), a repeated value, or a new handler, deadline or rate limit', async () => {
    const { tool, c, count } = await watched();
    tool.update({});
    tool.update({ description: 'Says hello' });
    tool.update({ inputSchema: z.object({ name: z.string() }) }); // an equal schema, new object
    tool.update({ handler: () => 'hi', timeoutMs: 5000, rateLimit: { limit: 5, windowMs: 1000 } });
    await sleep(30);
    expect(count()).toBe(0);
    // The handler change took effect all the same.
    expect(await c.client.callTool('greet', { name: 'x' })).toMatchObject({
      content: [{ type: 'text', text: 'hi' }],
    });
  });

  it('still sends it for a change a client can see', async () => {
    const { tool, c, count } = await watched();
    tool.update({ description: 'Greets someone' });
    await sleep(30);
    expect(count()).toBe(1);
    tool.update({ name: 'greet2' });
    await sleep(30);
    expect(count()).toBe(2);
    tool.update({ inputSchema: z.object({ name: z.string(), loud: z.boolean().optional() }) });
    await sleep(30);
    expect(count()).toBe(3);
    expect((await c.client.listTools()).map((t) => t.description)).toEqual(['Greets someone']);
  });
});

describe('reserved _meta keys', () => {
  it.each([
    'io.modelcontextprotocol/related-task',
    'io.modelcontextprotocol/anything',
    'dev.mcp/x',
    'org.modelcontextprotocol.api/x',
    'com.mcp.tools/x',
  ])('refuses %s on a tool, at registration and on update', (key) => {
    const server = new McpServer({ name: 's', version: '1' });
    expect(() => server.registerTool('t', { _meta: { [key]: true } }, () => 'x')).toThrow(
      /reserved for MCP itself/,
    );
    const tool = server.registerTool('u', {}, () => 'x');
    expect(() => tool.update({ _meta: { [key]: true } })).toThrow(/reserved for MCP itself/);
    expect(server.listRegisteredTools().map((t) => t.definition._meta)).toEqual([undefined]);
  });

  it.each(['com.example.mcp/x', 'com.example/owner', 'plain', 'mcp/x'])(
    'accepts %s (not reserved: the second label is not mcp or modelcontextprotocol)',
    (key) => {
      const server = new McpServer({ name: 's', version: '1' });
      server.registerTool('t', { _meta: { [key]: 1 } }, () => 'x');
      expect(server.listRegisteredTools()[0]?.definition._meta).toEqual({ [key]: 1 });
    },
  );
});

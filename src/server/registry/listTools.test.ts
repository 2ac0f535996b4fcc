import { describe, expect, it } from 'vitest';
import { connect } from '../../../test/support/harness.js';
import { ScriptedTransport, sleep } from '../../../test/support/scriptedTransport.js';
import { McpClient } from '../../client.js';
import { ErrorCode } from '../../jsonrpc/errors.js';
import { McpServer, type RegisteredTool } from '../../server.js';

function withTools(
  count: number,
  options: ConstructorParameters<typeof McpServer>[1] = {},
): { server: McpServer; handles: RegisteredTool[] } {
  const server = new McpServer({ name: 'list', version: '1' }, options);
  const handles: RegisteredTool[] = [];
  for (let i = 0; i < count; i++)
    handles.push(server.registerTool(`tool_${i}`, { description: `Tool ${i}` }, () => `${i}`));
  return { server, handles };
}

describe('tools/list pagination', () => {
  it('pages with opaque cursors and ends without nextCursor', async () => {
    const { server } = withTools(10, { pageSize: 3 });
    const c = await connect(server);
    const sizes: number[] = [];
    const cursors: Array<string | undefined> = [];
    for await (const page of c.client.pages()) {
      sizes.push(page.tools.length);
      cursors.push(page.nextCursor);
    }
    expect(sizes).toEqual([3, 3, 3, 1]);
    expect(cursors.at(-1)).toBeUndefined();
    expect((await c.client.listTools()).map((t) => t.name)).toEqual(
      [...Array(10).keys()].map((i) => `tool_${i}`),
    );
    expect(c.problems()).toEqual([]);
  });

  it('never repeats or skips a tool that exists throughout, while tools come and go', async () => {
    const { server, handles } = withTools(12, { pageSize: 4 });
    const c = await connect(server);
    const seen: string[] = [];
    let pageNo = 0;
    for await (const page of c.client.pages()) {
      seen.push(...page.tools.map((t) => t.name));
      if (pageNo === 0) {
        handles[1]?.remove(); // already seen
        handles[9]?.remove(); // not yet seen: correctly absent
        server.registerTool('late_1', {}, () => 'x');
      }
      if (pageNo === 1) handles[5]?.update({ description: 'changed' }); // keeps its place
      pageNo++;
    }
    const stable = [0, 2, 3, 4, 5, 6, 7, 8, 10, 11].map((i) => `tool_${i}`);
    for (const name of stable) expect(seen.filter((n) => n === name)).toHaveLength(1);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toContain('late_1');
    expect(seen).not.toContain('tool_9');
  });

  it('answers a bad cursor with -32602', async () => {
    const { server } = withTools(3, { pageSize: 1 });
    const transport = new ScriptedTransport();
    await server.connect(transport);
    transport.inject({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'x', version: '1' },
      },
    });
    await transport.next();
    for (const cursor of ['garbage', 'tw1.zzzzzz', 'tw1.', 42]) {
      transport.inject({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor } });
      expect(await transport.next()).toMatchObject({
        id: 2,
        error: { code: ErrorCode.InvalidParams },
      });
    }
  });
});

/** A client connected to a scripted server that the test answers by hand. */
async function scriptedServer(options: ConstructorParameters<typeof McpClient>[1] = {}) {
  const transport = new ScriptedTransport();
  const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'legacy', ...options });
  const connecting = client.connect(transport);
  const init = (await transport.next()) as { id: number };
  const serverInfo = { name: 's', version: '1' };
  const result = { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo };
  transport.inject({ jsonrpc: '2.0', id: init.id, result });
  await connecting;
  await transport.next(); // initialized
  return { transport, client };
}

describe('a client walking a misbehaving server', () => {
  it('stops on a cursor that repeats', async () => {
    const { transport, client } = await scriptedServer();
    const listing = client.listTools();
    for (let i = 0; i < 3; i++) {
      const req = (await transport.next()) as { id: number };
      transport.inject({
        jsonrpc: '2.0',
        id: req.id,
        result: {
          tools: [{ name: `t${i}`, inputSchema: { type: 'object' } }],
          nextCursor: i === 0 ? 'a' : 'b',
        },
      });
    }
    await expect(listing).rejects.toMatchObject({ code: 'pagination-loop' });
  });

  it('stops after maxListPages', async () => {
    const { transport, client } = await scriptedServer({ maxListPages: 5 });
    const listing = client.listTools();
    const answering = (async () => {
      for (let i = 0; i < 5; i++) {
        const req = (await transport.next()) as { id: number };
        transport.inject({
          jsonrpc: '2.0',
          id: req.id,
          result: { tools: [], nextCursor: `c${i}` },
        });
      }
    })();
    await expect(listing).rejects.toMatchObject({ code: 'pagination-loop' });
    await answering;
  });
});

describe('list_changed', () => {
  it('sends one notification per burst of changes, and the client cache follows', async () => {
    const { server, handles } = withTools(2);
    const changes: string[][] = [];
    const c = await connect(server, {
      client: { onToolsChanged: (tools) => changes.push(tools.map((t) => t.name)) },
    });
    await c.client.listTools();
    const before = c.serverSent.length;
    handles[0]?.disable();
    server.registerTool('extra', {}, () => 'x');
    handles[1]?.update({ title: 'One' });
    await sleep(60);
    const notes = c.serverSent
      .slice(before)
      .filter((m) => (m as { method?: string }).method === 'notifications/tools/list_changed');
    expect(notes).toHaveLength(1);
    expect(changes.at(-1)).toEqual(['tool_1', 'extra']);
    expect(c.client.cachedTools?.map((t) => t.name)).toEqual(['tool_1', 'extra']);
    handles[0]?.enable();
    await sleep(60);
    expect(changes.at(-1)).toEqual(['tool_0', 'tool_1', 'extra']);
    expect(c.problems()).toEqual([]);
  });

  it('does not announce changes made before a session initialized', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('early', {}, () => 'x');
    const c = await connect(server);
    await sleep(40);
    expect(
      c.serverSent.some(
        (m) => (m as { method?: string }).method === 'notifications/tools/list_changed',
      ),
    ).toBe(false);
    server.registerTool('later', {}, () => 'x');
    await sleep(40);
    expect(
      c.serverSent.filter(
        (m) => (m as { method?: string }).method === 'notifications/tools/list_changed',
      ),
    ).toHaveLength(1);
  });

  it('a disabled or removed tool is not listed and cannot be called', async () => {
    const { server, handles } = withTools(2);
    const c = await connect(server);
    handles[0]?.disable();
    handles[1]?.remove();
    expect(await c.client.listTools()).toEqual([]);
    await expect(c.client.callTool('tool_0', {}, { validateOutput: false })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: 'Unknown tool: tool_0',
    });
    expect(() => handles[1]?.enable()).toThrow(/removed/);
    expect(handles[1]?.removed).toBe(true);
  });
});

describe('visibility', () => {
  it('filters tools/list and guards tools/call with the same decision', async () => {
    const server = new McpServer(
      { name: 'acl', version: '1' },
      {
        visibility: (tool, { identity }) =>
          !tool.name.startsWith('admin_') || identity?.scopes?.includes('admin') === true,
      },
    );
    server.registerTool('admin_reset', {}, () => 'reset');
    server.registerTool('hello', {}, () => 'hi');
    const user = await connect(server, { identity: { id: 'alice' } });
    const admin = await connect(server, { identity: { id: 'root', scopes: ['admin'] } });
    expect((await user.client.listTools()).map((t) => t.name)).toEqual(['hello']);
    expect((await admin.client.listTools()).map((t) => t.name)).toEqual(['admin_reset', 'hello']);
    await expect(
      user.client.callTool('admin_reset', {}, { validateOutput: false }),
    ).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    expect(await admin.client.callTool('admin_reset')).toMatchObject({
      content: [{ type: 'text', text: 'reset' }],
    });
  });

  it('denies when the visibility check throws', async () => {
    const errors: string[] = [];
    const server = new McpServer(
      { name: 'acl', version: '1' },
      {
        visibility: () => {
          throw new Error('policy store down');
        },
        onerror: (_e, what) => errors.push(what),
      },
    );
    server.registerTool('hello', {}, () => 'hi');
    const c = await connect(server);
    expect(await c.client.listTools()).toEqual([]);
    expect(errors[0]).toContain('visibility');
  });
});

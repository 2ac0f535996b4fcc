/**
 * Per-tool scopes on any transport: a caller whose identity lacks a tool's scopes does not see it
 * in tools/list and gets "unknown tool" for a call, exactly like a tool the visibility hook hides.
 */
import { describe, expect, it } from 'vitest';
import { connect } from '../../../test/support/harness.js';
import { RpcError } from '../../jsonrpc/errors.js';
import type { Identity } from '../../jsonrpc/transport.js';
import { McpServer } from '../../server.js';

function scopedServer(options: ConstructorParameters<typeof McpServer>[1] = {}): McpServer {
  const server = new McpServer({ name: 'scoped', version: '1' }, options);
  server.registerTool('open', {}, () => 'open');
  server.registerTool('read', { scopes: ['files:read'] }, () => 'read');
  server.registerTool('admin', { scopes: ['files:read', 'admin'] }, () => 'admin');
  return server;
}

const caller = (scopes?: string[]): Identity => ({ id: 'alice', ...(scopes ? { scopes } : {}) });

async function names(server: McpServer, identity?: Identity): Promise<string[]> {
  const c = await connect(server, identity ? { identity } : {});
  return (await c.client.listTools()).map((t) => t.name);
}

describe('tool scopes', () => {
  it('list only the tools whose every scope the caller holds', async () => {
    const server = scopedServer();
    expect(await names(server)).toEqual(['open']);
    expect(await names(server, caller())).toEqual(['open']);
    expect(await names(server, caller(['admin']))).toEqual(['open']);
    expect(await names(server, caller(['files:read']))).toEqual(['open', 'read']);
    expect(await names(server, caller(['admin', 'files:read', 'x']))).toEqual([
      'open',
      'read',
      'admin',
    ]);
  });

  it('answer a call of a tool the caller lacks the scopes for as an unknown tool', async () => {
    const server = scopedServer();
    const c = await connect(server, { identity: caller(['files:read']) });
    expect(await c.client.callTool('read')).toMatchObject({ content: [{ text: 'read' }] });
    const refused = await c.client.callTool('admin', {}, { validateOutput: false }).catch((e) => e);
    expect(refused).toBeInstanceOf(RpcError);
    expect(refused).toMatchObject({ code: -32602, message: 'Unknown tool: admin' });
  });

  it('apply before the visibility hook, which still decides among the rest', async () => {
    const seen: string[] = [];
    const server = scopedServer({
      visibility: (tool) => {
        seen.push(tool.name);
        return tool.name !== 'open';
      },
    });
    expect(await names(server, caller(['files:read']))).toEqual(['read']);
    expect(seen).not.toContain('admin');
  });

  it('are told to clients by list_changed when they change, and tell the HTTP layer', async () => {
    const server = scopedServer();
    const handle = server.registerTool('later', { scopes: ['x'] }, () => 'later');
    const changed: string[][] = [];
    const c = await connect(server, {
      identity: caller([]),
      client: { onToolsChanged: (tools) => changed.push(tools.map((t) => t.name)) },
    });
    expect(await c.client.listTools()).toHaveLength(1);
    expect(server.toolScopes('later')).toEqual(['x']);
    handle.update({ scopes: [] });
    expect(server.toolScopes('later')).toBeUndefined();
    await expect.poll(() => changed.at(-1)).toEqual(['open', 'later']);
    handle.update({ scopes: ['y'] });
    expect(server.toolScopes('later')).toEqual(['y']);
    handle.disable();
    expect(server.toolScopes('later')).toBeUndefined();
    expect(server.toolScopes('read')).toEqual(['files:read']);
    expect(server.toolScopes('nothing')).toBeUndefined();
  });

  it('are checked at registration', () => {
    const server = new McpServer({ name: 'bad', version: '1' });
    const register = (scopes: unknown) => () =>
      server.registerTool('t', { scopes: scopes as string[] }, () => '');
    expect(register('files:read')).toThrow('Tool "t": scopes: scopes must be an array of strings');
    expect(register(['a b'])).toThrow(/RFC 6749/);
    expect(register([''])).toThrow(/non-empty/);
    expect(register(['offline_access'])).toThrow(/offline_access is not a resource scope/);
    server.registerTool('dup', { scopes: ['a', 'a', 'b'] }, () => '');
    expect(server.toolScopes('dup')).toEqual(['a', 'b']);
  });
});

/**
 * Issue 10: each `tools/list` page's serialisation is cached until the registry changes (a page
 * of a thousand definitions was serialised again for every request). What a client lists must
 * still follow every change, per revision, and per caller when a visibility hook decides.
 */
import { describe, expect, it } from 'vitest';
import { McpServer } from '../../src/server.js';
import { connect } from '../support/harness.js';

describe('cached tools/list pages', () => {
  it('follow every change of the registry, and differ per revision', async () => {
    const server = new McpServer({ name: 's', version: '1' }, { pageSize: 2 });
    const a = server.registerTool('a', { title: 'A' }, () => 'a');
    server.registerTool('b', {}, () => 'b');
    server.registerTool('c', {}, () => 'c');
    const current = await connect(server);
    const old = await connect(server, { version: '2025-03-26' });
    expect((await current.client.listTools()).map((t) => t.name)).toEqual(['a', 'b', 'c']);
    expect((await current.client.listTools())[0]).toMatchObject({ title: 'A' });
    expect((await old.client.listTools())[0]).toMatchObject({ annotations: { title: 'A' } });
    expect((await old.client.listTools())[0]).not.toHaveProperty('title');
    a.update({ title: 'Renamed' });
    server.registerTool('d', {}, () => 'd');
    a.disable();
    expect((await current.client.listTools()).map((t) => t.name)).toEqual(['b', 'c', 'd']);
    a.enable();
    expect((await current.client.listTools()).map((t) => t.title ?? t.name)).toEqual([
      'Renamed',
      'b',
      'c',
      'd',
    ]);
    expect(current.problems()).toEqual([]);
    expect(old.problems()).toEqual([]);
  });

  it('are built per caller when a visibility hook decides', async () => {
    const server = new McpServer(
      { name: 's', version: '1' },
      { visibility: (tool, { identity }) => tool.name !== 'admin' || identity?.id === 'root' },
    );
    server.registerTool('admin', {}, () => 'x');
    server.registerTool('open', {}, () => 'x');
    const root = await connect(server, { identity: { id: 'root' } });
    const guest = await connect(server, { identity: { id: 'guest' } });
    expect((await root.client.listTools()).map((t) => t.name)).toEqual(['admin', 'open']);
    expect((await guest.client.listTools()).map((t) => t.name)).toEqual(['open']);
    expect((await root.client.listTools()).map((t) => t.name)).toEqual(['admin', 'open']);
  });
});

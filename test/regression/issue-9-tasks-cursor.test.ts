/**
 * Issue 9, "refuse a tampered tasks/list cursor (`tm1.zzzzzzzzzzz` is accepted today) with
 * -32602": cursors carry a MAC of their position and owner under a secret of the store (shared
 * through Redis by every instance), so a cursor the server did not issue to this requestor is
 * refused, with the memory store and with Redis, while real cursors keep working, from one
 * instance to another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/index.js';
import { McpServer } from '../../src/server.js';
import { RedisTaskStore } from '../../src/stores/redisTaskStore.js';
import type { TaskStore } from '../../src/tasks/taskStore.js';
import { connect } from '../support/harness.js';
import { startRedis, type TestRedis } from '../support/redis.js';

type Raw = {
  request: (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>;
};
const raw = (c: { client: unknown }): Raw => (c.client as { connection: Raw }).connection;

function listServer(store?: TaskStore) {
  const server = new McpServer(
    { name: 'cursor', version: '1' },
    { onerror: () => {}, tasks: { pageSize: 2, ...(store ? { store } : {}) } },
  );
  server.registerTool('quick', { execution: { taskSupport: 'optional' } }, () => 'done');
  return server;
}

async function createTasks(c: { client: unknown }, count: number): Promise<void> {
  for (let i = 0; i < count; i++)
    await raw(c).request('tools/call', { name: 'quick', arguments: {}, task: {} });
}

/** Flips one character of the cursor's MAC (its last part). */
const tampered = (cursor: string) => cursor.slice(0, -1) + (cursor.endsWith('A') ? 'B' : 'A');

async function expectRefused(c: { client: unknown }, cursor: string): Promise<void> {
  await expect(raw(c).request('tasks/list', { cursor })).rejects.toMatchObject({
    code: ErrorCode.InvalidParams,
    message: 'Invalid cursor',
  });
}

describe('issue 9: tasks/list cursors are authenticated', () => {
  it('memory store: the audit cursor, a tampered one and another owner’s are refused with -32602', async () => {
    const server = listServer();
    try {
      const alice = await connect(server, { identity: { id: 'alice' } });
      const bob = await connect(server, { identity: { id: 'bob' } });
      await createTasks(alice, 5);
      const first = await raw(alice).request('tasks/list', {});
      const cursor = first['nextCursor'] as string;
      const second = await raw(alice).request('tasks/list', { cursor });
      expect(second['tasks']).toHaveLength(2);
      await expectRefused(alice, 'tm1.zzzzzzzzzzz');
      await expectRefused(alice, tampered(cursor));
      await expectRefused(alice, cursor.replace(/^tm2\.[0-9a-z]+/, 'tm2.zzzzzzzzzzz'));
      await expectRefused(bob, cursor);
      // The server keeps serving: the real cursor still works.
      expect((await raw(alice).request('tasks/list', { cursor }))['tasks']).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  describe('Redis store', () => {
    let redis: TestRedis;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      await redis.stop();
    });

    it('refuses forged cursors; a real one works on another instance', async () => {
      const stores = await Promise.all([
        RedisTaskStore.connect({ url: redis.url, keyPrefix: 'cursor:' }),
        RedisTaskStore.connect({ url: redis.url, keyPrefix: 'cursor:' }),
      ]);
      const servers = stores.map((store) => listServer(store));
      try {
        const [a, b] = await Promise.all(
          servers.map((server) => connect(server, { identity: { id: 'alice' } })),
        );
        if (!a || !b) throw new Error('two instances');
        await createTasks(a, 5);
        const first = await raw(a).request('tasks/list', {});
        const cursor = first['nextCursor'] as string;
        const second = await raw(b).request('tasks/list', { cursor });
        expect(second['tasks']).toHaveLength(2);
        await expectRefused(b, 'tm1.zzzzzzzzzzz');
        await expectRefused(b, `tr1.99999999999999999.${crypto.randomUUID()}`);
        await expectRefused(b, tampered(cursor));
        await expectRefused(b, cursor.replace(/^tr2\.\d+/, 'tr2.99999999999999999'));
        const mallory = await connect(servers[1] as McpServer, { identity: { id: 'mallory' } });
        await expectRefused(mallory, cursor);
      } finally {
        await Promise.all(servers.map((s) => s.close()));
        await Promise.all(stores.map((s) => s.close()));
      }
    });
  });
});

import { describe, expect, it } from 'vitest';
import { MemoryTaskStore } from './memoryTaskStore.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('MemoryTaskStore: remembered ids of expired tasks', () => {
  it('keeps at most maxExpiredIds, the most recently expired', async () => {
    const store = new MemoryTaskStore({ maxExpiredIds: 3 });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++)
        ids.push((await store.create({ owner: 'a', method: 'tools/call', ttl: 20 })).taskId);
      await sleep(60);
      // Expired in the order they are seen: the first two are forgotten by the time the last is.
      for (const taskId of ids) await store.get({ taskId, owner: 'a' });
      const remembered = await Promise.all(
        ids.map((taskId) => store.expired({ taskId, owner: 'a' })),
      );
      expect(remembered).toEqual([false, false, true, true, true]);
    } finally {
      await store.close();
    }
  });

  it('forgets them expiredIdsKeptMs after the expiry; 0 remembers none', async () => {
    const store = new MemoryTaskStore({ expiredIdsKeptMs: 100 });
    const none = new MemoryTaskStore({ maxExpiredIds: 0 });
    try {
      const task = await store.create({ owner: 'a', method: 'tools/call', ttl: 20 });
      const other = await none.create({ owner: 'a', method: 'tools/call', ttl: 20 });
      await sleep(60);
      expect(await store.expired({ taskId: task.taskId, owner: 'a' })).toBe(true);
      expect(await none.expired({ taskId: other.taskId, owner: 'a' })).toBe(false);
      await sleep(150);
      expect(await store.expired({ taskId: task.taskId, owner: 'a' })).toBe(false);
    } finally {
      await Promise.all([store.close(), none.close()]);
    }
  });
});

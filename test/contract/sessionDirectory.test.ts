/** The session directory contract, run against the in-memory directory and Redis. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisScaleOut } from '../../src/redis.js';
import type { SessionDirectory } from '../../src/transports/http/server/sessions/cluster/cluster.js';
import { MemorySessionDirectory } from '../../src/transports/http/server/sessions/cluster/memoryCluster.js';
import { startRedis, type TestRedis } from '../support/redis.js';

let redis: TestRedis;
let n = 0;
const closers: Array<() => Promise<void>> = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const close of closers) await close();
  await redis.stop();
});

const BACKENDS: Array<[string, () => Promise<SessionDirectory>]> = [
  ['memory', async () => new MemorySessionDirectory()],
  [
    'redis',
    async () => {
      const s = await createRedisScaleOut({ url: redis.url, keyPrefix: `dir${++n}:` });
      closers.push(() => s.close());
      return s.cluster.sessions;
    },
  ],
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const [name, make] of BACKENDS) {
  describe(`SessionDirectory contract: ${name}`, () => {
    it('creates once, reads back owner and state, updates, deletes', async () => {
      const dir = await make();
      const record = { owner: 'alice', state: { format: 1, protocolVersion: '2025-11-25' } };
      await dir.create({ sessionId: 'a1', record, ttlMs: 60_000 });
      await expect(dir.create({ sessionId: 'a1', record, ttlMs: 60_000 })).rejects.toThrow(
        /exists/,
      );
      expect(await dir.get('a1')).toEqual(record);
      expect(await dir.update({ sessionId: 'a1', state: { format: 1, logLevel: 'debug' } })).toBe(
        true,
      );
      expect(await dir.get('a1')).toEqual({
        owner: 'alice',
        state: { format: 1, logLevel: 'debug' },
      });
      expect(await dir.delete('a1')).toBe(true);
      expect(await dir.delete('a1')).toBe(false);
      expect(await dir.get('a1')).toBeUndefined();
      // A deleted session is not brought back by a late update.
      expect(await dir.update({ sessionId: 'a1', state: {} })).toBe(false);
      expect(await dir.get('a1')).toBeUndefined();
    });

    it('keeps a session without an owner as such', async () => {
      const dir = await make();
      await dir.create({
        sessionId: 'anon',
        record: { owner: undefined, state: {} },
        ttlMs: 60_000,
      });
      expect(await dir.get('anon')).toEqual({ owner: undefined, state: {} });
    });

    it('expires idle sessions; touch keeps one alive, update keeps its expiry', async () => {
      const dir = await make();
      await dir.create({ sessionId: 'idle', record: { owner: undefined, state: {} }, ttlMs: 150 });
      await dir.create({ sessionId: 'busy', record: { owner: undefined, state: {} }, ttlMs: 150 });
      await sleep(100);
      await dir.touch({ sessionId: 'busy', ttlMs: 300 });
      expect(await dir.update({ sessionId: 'idle', state: { v: 2 } })).toBe(true);
      await sleep(120);
      expect(await dir.get('idle')).toBeUndefined();
      expect(await dir.get('busy')).toBeDefined();
    });
  });
}

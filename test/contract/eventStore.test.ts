import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisScaleOut } from '../../src/redis.js';
import { MemoryEventStore } from '../../src/transports/http/server/sessions/memoryEventStore.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { eventStoreContract } from './eventStoreContract.js';

let redis: TestRedis;
let n = 0;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
});

eventStoreContract('memory', async () => ({
  store: new MemoryEventStore({ maxEventsPerStream: 5 }),
  close: async () => {},
}));

eventStoreContract('redis', async () => {
  const scaleOut = await createRedisScaleOut({
    url: redis.url,
    keyPrefix: `events${++n}:`,
    events: { maxEventsPerStream: 5 },
  });
  return { store: scaleOut.cluster.events, close: () => scaleOut.close() };
});

describe('Redis event store specifics', () => {
  it('every key of a stream expires with it', async () => {
    const scaleOut = await createRedisScaleOut({
      url: redis.url,
      keyPrefix: 'evttl:',
      events: { streamTtlMs: 1000 },
    });
    try {
      const store = scaleOut.cluster.events;
      await store.append({
        streamId: 'k',
        sessionId: 's',
        eventId: 'k:1',
        message: { jsonrpc: '2.0', method: 'x' },
      });
      await store.append({
        streamId: 'k',
        sessionId: 's',
        eventId: 'k:2',
        message: {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 1, progress: 1 },
        },
      });
      await store.endStream('k');
      // The stream's five keys, and the round-trip secret every instance shares (kept).
      expect(await redis.command('KEYS', 'evttl:ev*')).toMatch(/^\*5\r\n/);
      expect(await redis.command('PTTL', 'evttl:mrtr:secret')).toBe(':-1\r\n');
      for (const key of [
        'evttl:ev:k',
        'evttl:evm:k',
        'evttl:evs:s',
        'evttl:evp:k',
        'evttl:evo:k',
      ]) {
        const ttl = Number((await redis.command('PTTL', key)).slice(1));
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(1000);
      }
      await new Promise((r) => setTimeout(r, 1100));
      expect(await redis.command('KEYS', 'evttl:ev*')).toBe('*0\r\n');
    } finally {
      await scaleOut.close();
    }
  });
});

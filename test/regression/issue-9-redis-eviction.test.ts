/**
 * Issue 9, Redis: "check `maxmemory-policy` at start: with an eviction policy other than
 * `noeviction`, refuse to start (or warn loudly when the application opts in), since evicted
 * task or session keys lose accepted work". Real redis-servers, private to this file: one whose
 * policy is changed with CONFIG SET, one with CONFIG disabled (as managed services do: the policy
 * is read from INFO), and on it a user that may not run INFO either (the stores warn and carry
 * on).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisScaleOut } from '../../src/redis.js';
import { RedisTaskStore } from '../../src/stores/redisTaskStore.js';
import { startRedis, type TestRedis } from '../support/redis.js';

const refusal = (policy: string) =>
  new RegExp(
    `evicts keys under memory pressure \\(maxmemory-policy ${policy}\\).*` +
      'Set maxmemory-policy to noeviction.*allowEviction: true',
  );

describe('issue 9: a Redis that evicts keys', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis.stop();
  });

  it('is refused by createRedisScaleOut and RedisTaskStore.connect, whatever evicting policy', async () => {
    for (const policy of ['allkeys-lru', 'volatile-ttl']) {
      expect(await redis.command('CONFIG', 'SET', 'maxmemory-policy', policy)).toBe('+OK\r\n');
      await expect(createRedisScaleOut({ url: redis.url })).rejects.toThrow(refusal(policy));
      await expect(RedisTaskStore.connect({ url: redis.url })).rejects.toThrow(refusal(policy));
    }
    // An application's own client is checked too (and left open: it is not the store's).
    const client = new Redis(redis.url);
    try {
      await expect(createRedisScaleOut({ client })).rejects.toThrow(
        /Redis at the given client evicts keys/,
      );
      expect(await client.ping()).toBe('PONG');
    } finally {
      client.disconnect();
    }
  });

  it('is accepted with a warning when the application opts in; noeviction passes silently', async () => {
    await redis.command('CONFIG', 'SET', 'maxmemory-policy', 'allkeys-lru');
    const warnings: string[] = [];
    const shared = await createRedisScaleOut({
      url: redis.url,
      allowEviction: true,
      onwarning: (message) => warnings.push(message),
    });
    try {
      expect(warnings).toEqual([
        expect.stringMatching(
          /maxmemory-policy allkeys-lru.*losing accepted work\. Running anyway \(allowEviction\)/,
        ),
      ]);
      const task = await shared.taskStore.create({ owner: 'o', method: 'tools/call', ttl: 1000 });
      expect(task.status).toBe('working');
    } finally {
      await shared.close();
    }
    // Without onwarning, the warning is a process warning (printed on stderr by default).
    const seen: Error[] = [];
    const listener = (warning: Error) => seen.push(warning);
    process.on('warning', listener);
    try {
      const store = await RedisTaskStore.connect({ url: redis.url, allowEviction: true });
      await store.close();
      await new Promise((r) => setImmediate(r));
      expect(seen).toEqual([
        expect.objectContaining({
          code: 'TOOLWIRE_REDIS',
          message: expect.stringContaining('allkeys-lru'),
        }),
      ]);
    } finally {
      process.off('warning', listener);
    }
    await redis.command('CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
    const quiet: string[] = [];
    const store = await RedisTaskStore.connect({
      url: redis.url,
      onwarning: (m) => quiet.push(m),
    });
    await store.close();
    expect(quiet).toEqual([]);
  });
});

describe('issue 9: a managed Redis that hides its configuration', () => {
  let managed: TestRedis;
  beforeAll(async () => {
    managed = await startRedis({
      args: ['--rename-command', 'CONFIG', '', '--maxmemory-policy', 'volatile-lru'],
    });
    // A user that may not run INFO either (an ACL as restricted services hand out).
    const user = ['ACL', 'SETUSER', 'app', 'on', '>secret', '~*', '&*', '+@all', '-info'];
    expect(await managed.command(...user)).toBe('+OK\r\n');
  });
  afterAll(async () => {
    await managed.stop();
  });

  it('without CONFIG, the policy is read from INFO and an evicting one is refused', async () => {
    expect(await managed.command('CONFIG', 'GET', 'maxmemory-policy')).toMatch(/^-ERR/);
    await expect(RedisTaskStore.connect({ url: managed.url })).rejects.toThrow(
      refusal('volatile-lru'),
    );
  });

  it('without CONFIG and INFO, the stores warn that the policy could not be read and carry on', async () => {
    const warnings: string[] = [];
    const shared = await createRedisScaleOut({
      url: `redis://app:secret@127.0.0.1:${managed.port}`,
      onwarning: (message) => warnings.push(message),
    });
    try {
      // The password stays out of the message.
      expect(warnings).toEqual([
        expect.stringMatching(
          /^Could not read the maxmemory-policy of Redis at redis:\/\/app:\*\*\*@127\.0\.0\.1:\d+\/? .*make sure it is noeviction/,
        ),
      ]);
      const task = await shared.taskStore.create({ owner: 'o', method: 'tools/call', ttl: 1000 });
      expect(task.status).toBe('working');
    } finally {
      await shared.close();
    }
  });
});

/**
 * @module A Lua script run by its SHA (EVALSHA), loaded on first use and again after a Redis
 * restart (NOSCRIPT). Scripts are how the Redis stores make a read-check-write atomic.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** One Lua script. */
export class RedisScript {
  readonly sha: string;

  constructor(readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  /** Runs the script with `keys` and `args`. */
  async run(
    redis: Redis,
    keys: readonly string[],
    args: readonly (string | number)[],
  ): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}

/**
 * @module The 2026 round trips' shared state in Redis, for several instances of one server: the
 * secret that signs request states (made once by whichever instance comes first, then read by
 * every other) and the states whose approval was used (`SET ... NX` until each one expires).
 */
import { randomBytes } from 'node:crypto';
import type { SpentStateStore } from '../server/input/spentStates.js';
import type { StoreConnection } from './redisConnection.js';

/** Spent states in Redis: one key per state, gone when the state expires. */
export class RedisSpentStates implements SpentStateStore {
  private readonly prefix: string;

  constructor(private readonly connection: StoreConnection) {
    this.prefix = `${connection.prefix}spent:`;
  }

  /** True the first time `id` is spent, on any instance; a Redis failure rejects (refused). */
  async spend(id: string, expiresAt: number): Promise<boolean> {
    const ms = Math.max(1, Math.ceil(expiresAt - Date.now()));
    const set = await this.connection.redis.set(this.prefix + id, '1', 'PX', ms, 'NX');
    return set === 'OK';
  }
}

/**
 * The secret every instance signs request states with: created by the first instance (64 random
 * bytes, hex), read by the others. Kept as long as the prefix's keys are.
 */
export async function sharedStateSecret(connection: StoreConnection): Promise<string> {
  const key = `${connection.prefix}mrtr:secret`;
  const { redis } = connection;
  // Read first: an instance that starts while Redis refuses writes (over maxmemory) still gets
  // the secret the first one made; only the first instance writes.
  let secret = await redis.get(key);
  if (secret === null) {
    await redis.set(key, randomBytes(64).toString('hex'), 'NX');
    secret = await redis.get(key);
  }
  if (secret === null || secret.length < 64)
    throw new Error(`The round-trip secret at ${key} could not be read from Redis`);
  return secret;
}

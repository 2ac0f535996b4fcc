/**
 * @module Rate limit counts in Redis, shared by every instance of a server: one Lua script admits
 * a call (token buckets and the concurrency slot, all or nothing, on Redis's clock), idle buckets
 * expire, and a slot is a lease that frees itself if its instance dies before releasing it. Runs
 * the same contract suite as the memory store.
 */
import { randomBytes } from 'node:crypto';
import {
  ADMITTED,
  type Admission,
  type AdmitRequest,
  type RateLimitStore,
} from '../server/policy/rateLimitStore.js';
import {
  closeConnection,
  openConnection,
  type RedisConnectionOptions,
  type StoreConnection,
} from './redisConnection.js';
import { ADMIT } from './redisRateLimitScript.js';

/** Options of {@link RedisRateLimitStore.connect}. */
export type RedisRateLimitStoreOptions = RedisConnectionOptions;

/** The Redis rate limit store. Create it with {@link RedisRateLimitStore.connect}. */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly prefix: string;
  /** Makes this store's lease ids unique among instances. */
  private readonly leaseTag = randomBytes(9).toString('base64url');
  private leases = 0;
  private closed = false;

  /**
   * A store over a connection someone else manages (see `createRedisScaleOut`); `owned` says
   * whether {@link close} closes it.
   */
  constructor(
    private readonly connection: StoreConnection,
    private readonly owned = false,
  ) {
    this.prefix = `${connection.prefix}rate:`;
  }

  /** Connects to Redis (importing `ioredis`, an optional peer dependency). */
  static async connect(options: RedisRateLimitStoreOptions = {}): Promise<RedisRateLimitStore> {
    return new RedisRateLimitStore(await openConnection(options), true);
  }

  /** See {@link RateLimitStore.admit}: one script run, one round trip. */
  async admit(request: AdmitRequest): Promise<Admission> {
    const { buckets, slot } = request;
    const keys: string[] = [];
    const args: (string | number)[] = [buckets.length];
    for (const { key, rule } of buckets) {
      keys.push(this.prefix + key);
      args.push(rule.limit, rule.windowMs);
    }
    const leaseId = slot ? `${this.leaseTag}.${++this.leases}` : '';
    if (slot) {
      keys.push(this.prefix + slot.key);
      args.push(slot.max, slot.leaseMs, slot.retryAfterMs, leaseId);
    }
    const reply = (await ADMIT.run(this.connection.redis, keys, args)) as number[];
    if (reply[0] !== 1)
      return { allowed: false, retryAfterMs: Number(reply[1]), refusedBy: Number(reply[2]) };
    if (!slot) return ADMITTED;
    const setKey = this.prefix + slot.key;
    let held = true;
    const release = (): void => {
      if (!held) return;
      held = false;
      // Fire and forget: if Redis cannot be reached the lease frees the slot when it ends.
      this.connection.redis.zrem(setKey, leaseId).catch(() => {});
    };
    return { allowed: true, release };
  }

  /** Closes the connection if this store opened it. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.owned) await closeConnection(this.connection);
  }
}

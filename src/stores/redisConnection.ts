/**
 * @module Connecting to Redis for the stores: `ioredis` is an optional peer dependency, imported
 * only when a Redis store is created. Commands fail fast while Redis is unreachable (no offline
 * queue, a command timeout) so a call gets a clear error instead of hanging; the client keeps
 * reconnecting in the background and the stores work again once Redis is back.
 */
import type { Redis, RedisOptions } from 'ioredis';
import { checkEvictionPolicy } from './redisEviction.js';

/** How a Redis store reaches Redis. */
export interface RedisConnectionOptions {
  /** `redis://[user:password@]host:port[/db]`. Default `redis://127.0.0.1:6379`. */
  url?: string;
  /** An existing client to use (not closed by the store). Takes precedence over `url`. */
  client?: Redis;
  /** Milliseconds a command may take before it fails. Default 2000. */
  commandTimeoutMs?: number;
  /** Prefix of every key and channel. Default `toolwire:`. */
  keyPrefix?: string;
  /**
   * Accept a Redis whose `maxmemory-policy` evicts keys (anything but `noeviction`), with a
   * warning. Default false: connecting to one fails, since an evicted task or session loses work
   * that was accepted.
   */
  allowEviction?: boolean;
  /**
   * Where warnings go (an eviction policy allowed by `allowEviction`, a policy that cannot be
   * read because CONFIG and INFO are refused). Default: `process.emitWarning`.
   */
  onwarning?: (message: string) => void;
}

/** A client the store uses, and whether the store owns (and so closes) it. */
export interface StoreConnection {
  readonly redis: Redis;
  readonly owned: boolean;
  readonly prefix: string;
}

async function loadRedisClass(): Promise<typeof Redis> {
  try {
    return (await import('ioredis')).Redis;
  } catch (error) {
    throw new Error('The Redis stores need the "ioredis" package: npm install ioredis', {
      cause: error,
    });
  }
}

/** Client options that fail fast while disconnected and reconnect with a capped backoff. */
export function failFastOptions(commandTimeoutMs: number): RedisOptions {
  return {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectTimeout: Math.max(commandTimeoutMs, 2000),
    retryStrategy: (attempt: number) => Math.min(50 * 2 ** Math.min(attempt, 6), 2000),
    // Not enableAutoPipelining: measured with the task benchmark it cost a third of the
    // throughput (2350 vs 3400 task calls/s at 16 in flight).
  };
}

/** Where a URL points, without its password (for messages). */
function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured URL';
  }
}

/**
 * Opens (or adopts) a client and waits until it is ready; refuses a Redis that evicts keys
 * unless `allowEviction` (see redisEviction.ts).
 */
export async function openConnection(options: RedisConnectionOptions): Promise<StoreConnection> {
  const prefix = options.keyPrefix ?? 'toolwire:';
  const url = options.url ?? 'redis://127.0.0.1:6379';
  const check = {
    allowEviction: options.allowEviction ?? false,
    warn:
      options.onwarning ??
      ((message: string) => process.emitWarning(message, { code: 'TOOLWIRE_REDIS' })),
    where: options.client ? 'the given client' : redactedUrl(url),
  };
  if (options.client) {
    await checkEvictionPolicy(options.client, check);
    return { redis: options.client, owned: false, prefix };
  }
  const RedisClient = await loadRedisClass();
  const redis = new RedisClient(url, failFastOptions(options.commandTimeoutMs ?? 2000));
  // Connection errors are reported per command; the client's own 'error' events would
  // otherwise print "Unhandled error event" on every reconnection attempt.
  redis.on('error', () => {});
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(`Could not connect to Redis at ${check.where}`, { cause: error });
  }
  try {
    await checkEvictionPolicy(redis, check);
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  return { redis, owned: true, prefix };
}

/** A second connection for subscriptions (a subscribed Redis connection can do nothing else). */
export async function openSubscriber(connection: StoreConnection): Promise<Redis> {
  const subscriber = connection.redis.duplicate({ enableOfflineQueue: true, lazyConnect: true });
  subscriber.on('error', () => {});
  await subscriber.connect();
  return subscriber;
}

/** Closes a client the store owns. */
export async function closeConnection(connection: StoreConnection): Promise<void> {
  if (!connection.owned) return;
  await connection.redis.quit().catch(() => connection.redis.disconnect());
}

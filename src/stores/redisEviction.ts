/**
 * @module The check the Redis stores make when they connect: a Redis that evicts keys under
 * memory pressure (any `maxmemory-policy` but `noeviction`; the `volatile-*` ones too, since
 * every toolwire key has an expiry) can drop a task or a session that was accepted, losing work
 * a client was promised. So such a Redis is refused unless the application opts in, and then it
 * is warned about. Managed services often disable CONFIG: the policy is then read from INFO, and
 * when neither can be read the store warns and carries on.
 */
import type { Redis } from 'ioredis';

/** What the check does. */
export interface EvictionCheckOptions {
  /** Accept a Redis that evicts keys (with a warning) instead of refusing it. */
  allowEviction: boolean;
  /** Where warnings go. */
  warn: (message: string) => void;
  /** Where Redis is, for messages. */
  where: string;
}

/** The `maxmemory-policy` of a server, or undefined when neither CONFIG nor INFO tells it. */
export async function readEvictionPolicy(redis: Redis): Promise<string | undefined> {
  try {
    const reply: unknown = await redis.config('GET', 'maxmemory-policy');
    // A flat [name, value] list (RESP2) or a map (RESP3).
    const value = Array.isArray(reply)
      ? (reply as unknown[])[1]
      : (reply as Record<string, unknown> | null)?.['maxmemory-policy'];
    if (typeof value === 'string') return value;
  } catch {
    // CONFIG disabled or renamed (managed Redis): INFO usually still answers.
  }
  try {
    const info = await redis.info('memory');
    return /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
  } catch {
    return undefined;
  }
}

/** Refuses (throws) or warns about a Redis that may evict toolwire's keys. */
export async function checkEvictionPolicy(
  redis: Redis,
  options: EvictionCheckOptions,
): Promise<void> {
  const policy = await readEvictionPolicy(redis);
  if (policy === 'noeviction') return;
  if (policy === undefined) {
    options.warn(
      `Could not read the maxmemory-policy of Redis at ${options.where} (CONFIG GET and INFO ` +
        'were refused); make sure it is noeviction, or tasks and sessions may be evicted',
    );
    return;
  }
  const problem =
    `Redis at ${options.where} evicts keys under memory pressure (maxmemory-policy ${policy}): ` +
    'tasks and sessions stored there could vanish, losing accepted work';
  if (options.allowEviction) {
    options.warn(`${problem}. Running anyway (allowEviction); set it to noeviction`);
    return;
  }
  throw new Error(
    `${problem}. Set maxmemory-policy to noeviction (in redis.conf, or CONFIG SET ` +
      'maxmemory-policy noeviction), or pass allowEviction: true to run anyway',
  );
}

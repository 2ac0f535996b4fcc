/**
 * @module `toolwire/redis`: the shared state of several server instances in Redis (tasks,
 * Streamable HTTP sessions, SSE events, rate limits, an instance bus). Needs the optional peer
 * dependency `ioredis`, imported only when a connection is made.
 *
 * The stores implement interfaces of three places, the tasks' `TaskStore`, the HTTP cluster's
 * `SessionDirectory`/`ClusterBus`/`SharedEventStore` and the server's `RateLimitStore` and
 * `SpentStateStore`, so `stores/` imports them (STYLE.md lets it import only the task store's; the
 * others are interfaces of the same kind, kept beside the code that uses them:
 * `transports/http/server/sessions/cluster/cluster.ts`, and `server/policy/rateLimitStore.ts` and
 * `server/input/spentStates.ts`, the two files of `server/` that `stores/` may import).
 */
export { createRedisScaleOut } from './stores/redisScaleOut.js';
export type { InstanceLink, RedisScaleOut, RedisScaleOutOptions } from './stores/redisScaleOut.js';
export { RedisRateLimitStore } from './stores/redisRateLimitStore.js';
export { RedisSpentStates } from './stores/redisSpentStates.js';
export type { RedisRateLimitStoreOptions } from './stores/redisRateLimitStore.js';
export { RedisTaskStore } from './stores/redisTaskStore.js';
export type { RedisTaskStoreOptions } from './stores/redisTaskStore.js';
export type { RedisConnectionOptions } from './stores/redisConnection.js';
export type { RedisEventStoreOptions } from './stores/redisEventStore.js';

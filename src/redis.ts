/**
 * @module `toolwire/redis`: the shared state of several server instances in Redis (tasks,
 * Streamable HTTP sessions, SSE events, an instance bus). Needs the optional peer dependency
 * `ioredis`, imported only when a connection is made.
 *
 * The stores implement interfaces of two layers, the tasks' `TaskStore` and the HTTP cluster's
 * `SessionDirectory`/`ClusterBus`/`SharedEventStore`, so `stores/` imports both (STYLE.md lets it
 * import only the task store's; the cluster interfaces are types of the same kind, kept in
 * `transports/http/cluster.ts` where the handler that uses them lives).
 */
export { createRedisScaleOut } from './stores/redisScaleOut.js';
export type { InstanceLink, RedisScaleOut, RedisScaleOutOptions } from './stores/redisScaleOut.js';
export { RedisTaskStore } from './stores/redisTaskStore.js';
export type { RedisTaskStoreOptions } from './stores/redisTaskStore.js';
export type { RedisConnectionOptions } from './stores/redisConnection.js';
export type { RedisEventStoreOptions } from './stores/redisEventStore.js';

/**
 * @module Everything several instances of a server share, over one Redis: the task store, the
 * rate limit store, and the sessions, bus and event store of Streamable HTTP's cluster mode, on one command connection
 * and one subscriber connection. Also a small application broadcast, e.g. to change the tool
 * set on every instance at once (each instance then tells its own clients with `list_changed`).
 */
import type { HttpCluster } from '../transports/http/server/sessions/cluster/cluster.js';
import { RedisBus } from './redisBus.js';
import { RedisChannels } from './redisChannels.js';
import { closeConnection, openConnection, type RedisConnectionOptions } from './redisConnection.js';
import { RedisEventStore, type RedisEventStoreOptions } from './redisEventStore.js';
import { RedisRateLimitStore } from './redisRateLimitStore.js';
import { RedisSpentStates, sharedStateSecret } from './redisSpentStates.js';
import { RedisSessionDirectory } from './redisSessionDirectory.js';
import { RedisTaskStore } from './redisTaskStore.js';

/** Options of {@link createRedisScaleOut}. */
export interface RedisScaleOutOptions extends RedisConnectionOptions {
  /** How SSE events are kept for resumption. */
  events?: RedisEventStoreOptions;
  /** This instance's id on the bus (visible ASCII, no '.'). Default: random. */
  instanceId?: string;
}

/** How application code on one instance reaches the others (tool set changes, caches...). */
export interface InstanceLink {
  /** This instance's id on the bus. */
  readonly instanceId: string;
  /** Sends `data` (JSON) to the `onBroadcast` listeners of `topic` on every *other* instance. */
  broadcast(topic: string, data: unknown): Promise<void>;
  /** Listens to what other instances broadcast on `topic`; resolves once subscribed. */
  onBroadcast(topic: string, listener: (data: unknown) => void): Promise<() => void>;
}

/** One instance's connection to the shared state. */
export interface RedisScaleOut extends InstanceLink {
  /** For `new McpServer({ tasks: { store } })`. */
  readonly taskStore: RedisTaskStore;
  /** For `new McpServer({ rateLimit: { ..., store } })`: limits shared by every instance. */
  readonly rateLimitStore: RedisRateLimitStore;
  /** For `createHttpHandler(server, { cluster })`. */
  readonly cluster: HttpCluster;
  /**
   * For `server.useInputRoundTrips(...)`: the secret every instance signs 2026 request states
   * with, and the states whose approval was used, so a retry may reach any instance and an
   * approval is used once across them all.
   */
  readonly inputRoundTrips: { readonly secret: string; readonly spentStates: RedisSpentStates };

  /** Closes the connections (the task store, rate limit store and cluster stop working). */
  close(): Promise<void>;
}

const INSTANCE_ID = /^[\x21-\x2d\x2f-\x7e]{1,64}$/;

/**
 * Connects this instance to the shared state in Redis. Fails when Redis cannot be reached;
 * afterwards an outage fails the commands that need Redis (clear errors, no hanging) and the
 * connection recovers by itself once Redis is back.
 */
export async function createRedisScaleOut(
  options: RedisScaleOutOptions = {},
): Promise<RedisScaleOut> {
  const id = options.instanceId;
  if (id !== undefined && (!INSTANCE_ID.test(id) || id === 'others'))
    throw new RangeError(
      'instanceId must be 1-64 visible ASCII characters without ".", not "others"',
    );
  const connection = await openConnection(options);
  let secret: string;
  try {
    secret = await sharedStateSecret(connection);
  } catch (error) {
    await closeConnection(connection);
    throw error;
  }
  const channels = new RedisChannels(connection);
  const bus = new RedisBus(connection, channels, options.instanceId);
  const taskStore = new RedisTaskStore(connection, channels);
  const rateLimitStore = new RedisRateLimitStore(connection);
  const inputRoundTrips = { secret, spentStates: new RedisSpentStates(connection) };
  const cluster: HttpCluster = {
    sessions: new RedisSessionDirectory(connection),
    bus,
    events: new RedisEventStore(connection, channels, options.events),
  };
  let closed = false;
  return {
    instanceId: bus.instanceId,
    taskStore,
    rateLimitStore,
    cluster,
    inputRoundTrips,
    broadcast: (topic, data) => bus.publish('others', { kind: 'app', topic, data }),
    onBroadcast: (topic, listener) =>
      bus.subscribe((message) => {
        if (message.kind === 'app' && message.topic === topic) listener(message.data);
      }),
    close: async () => {
      if (closed) return;
      closed = true;
      await taskStore.close();
      await rateLimitStore.close();
      channels.close();
      await closeConnection(connection);
    },
  };
}

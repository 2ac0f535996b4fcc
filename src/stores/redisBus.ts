/**
 * @module The cluster bus over Redis pub/sub: each instance listens on its own channel
 * (`P bus:<instance>`) and on one shared by all (`P bus:all`). Like the bus contract says,
 * delivery is best effort: a message published while an instance is disconnected is lost to it.
 */
import { randomBytes } from 'node:crypto';
import type {
  ClusterBus,
  ClusterMessage,
} from '../transports/http/server/sessions/cluster/cluster.js';
import type { RedisChannels } from './redisChannels.js';
import type { StoreConnection } from './redisConnection.js';

interface Envelope {
  readonly from: string;
  readonly message: ClusterMessage;
}

/** A fresh instance id: 12 characters of base64url (no '.', which request ids use as separator). */
export function newInstanceId(): string {
  return randomBytes(9).toString('base64url');
}

/** The Redis cluster bus of one instance. */
export class RedisBus implements ClusterBus {
  constructor(
    private readonly connection: StoreConnection,
    private readonly channels: RedisChannels,
    readonly instanceId: string = newInstanceId(),
  ) {}

  private channel(to: string): string {
    return `${this.connection.prefix}bus:${to === 'others' ? 'all' : `i.${to}`}`;
  }

  async publish(to: string, message: ClusterMessage): Promise<void> {
    const envelope: Envelope = { from: this.instanceId, message };
    await this.connection.redis.publish(this.channel(to), JSON.stringify(envelope));
  }

  async subscribe(listener: (message: ClusterMessage) => void): Promise<() => void> {
    const onPayload = (payload: string): void => {
      let envelope: Envelope;
      try {
        envelope = JSON.parse(payload) as Envelope;
      } catch {
        return; // Not ours: someone else published on our channel.
      }
      if (envelope.from === this.instanceId || typeof envelope.message !== 'object') return;
      listener(envelope.message);
    };
    const settled = await Promise.allSettled([
      this.channels.listen(this.channel('others'), onPayload),
      this.channels.listen(this.channel(this.instanceId), onPayload),
    ]);
    const stops = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const stopAll = (): void => stops.forEach((stop) => stop());
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) {
      stopAll(); // Half a subscription would receive only some messages.
      throw failed.reason;
    }
    return stopAll;
  }
}

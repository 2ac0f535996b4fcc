/**
 * @module Pub/sub for the Redis stores over one subscriber connection per process: a subscribed
 * Redis connection can do nothing else, and the task store, the cluster bus and the event store
 * all listen, so they share it. A channel is subscribed while someone listens to it; after a
 * reconnection ioredis subscribes again by itself.
 */
import type { Redis } from 'ioredis';
import { openSubscriber, type StoreConnection } from './redisConnection.js';

type Handler = (payload: string) => void;

/** The channels this process listens to. */
export class RedisChannels {
  private subscriber: Promise<Redis> | undefined;
  private readonly handlers = new Map<string, Set<Handler>>();
  private closed = false;

  constructor(private readonly connection: StoreConnection) {}

  /**
   * Calls `handler` with every message published on `channel`; resolves once Redis confirmed
   * the subscription (messages published after that are seen). Returns the unsubscribe.
   */
  async listen(channel: string, handler: Handler): Promise<() => void> {
    if (this.closed) throw new Error('The Redis connection is closed');
    const subscriber = await this.open();
    let set = this.handlers.get(channel);
    const first = !set;
    if (!set) this.handlers.set(channel, (set = new Set()));
    set.add(handler);
    if (first) {
      try {
        await subscriber.subscribe(channel);
      } catch (error) {
        set.delete(handler);
        if (set.size === 0) this.handlers.delete(channel);
        throw error;
      }
    }
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      set.delete(handler);
      if (set.size > 0 || this.handlers.get(channel) !== set) return;
      this.handlers.delete(channel);
      // Best effort: a failed unsubscribe only leaves messages nobody handles.
      subscriber.unsubscribe(channel).catch(() => {});
    };
  }

  /** Closes the subscriber connection. */
  close(): void {
    this.closed = true;
    this.handlers.clear();
    void this.subscriber?.then((s) => s.disconnect()).catch(() => {});
  }

  private open(): Promise<Redis> {
    this.subscriber ??= (async () => {
      const subscriber = await openSubscriber(this.connection);
      subscriber.on('message', (channel: string, payload: string) => {
        for (const handler of [...(this.handlers.get(channel) ?? [])]) {
          try {
            handler(payload);
          } catch {
            // One listener's failure must not keep the message from the others.
          }
        }
      });
      return subscriber;
    })();
    // A failed connection is retried by the next listen() instead of failing forever.
    this.subscriber.catch(() => (this.subscriber = undefined));
    return this.subscriber;
  }
}

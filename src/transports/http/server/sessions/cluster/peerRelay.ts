/**
 * @module Relaying a stream another instance writes to a connection here (a resumption on
 * another instance of a cluster): the shared store replays what the client missed, then hands
 * over each event the other instance appends. A connection that stops keeping up (it holds
 * `SSE_BACKLOG_BYTES` unsent) is not written to until it drains; then the relay follows the
 * store again from the last event written, so what waits for a slow reader waits in the store,
 * under its bounds.
 */
import type { SharedEventStore } from './cluster.js';
import type { SseChannel } from '../../exchange.js';
import { formatSseEvent } from '../../../shared/sse.js';

/** Follows one stream of the shared store onto one connection. */
export class PeerRelay {
  private lastEventId: string;
  private stopFollowing: () => void = () => {};
  private congested = false;
  private stopped = false;

  private readonly channel: SseChannel;
  private readonly events: SharedEventStore;
  private readonly onEnd: () => void;

  constructor(options: {
    channel: SseChannel;
    events: SharedEventStore;
    lastEventId: string;
    /** The stream ended and every event of it was written. */
    onEnd: () => void;
  }) {
    this.channel = options.channel;
    this.events = options.events;
    this.lastEventId = options.lastEventId;
    this.onEnd = options.onEnd;
    this.channel.ondrain = () => void this.drained();
  }

  /** Starts following; resolves with the session of the stream, undefined when it is unknown. */
  async start(): Promise<string | undefined> {
    const followed = await this.follow();
    if (!followed) return undefined;
    this.stopFollowing = followed.stop;
    return followed.sessionId;
  }

  /** Stops following (the connection ended, or the session closed). */
  stop(): void {
    this.stopped = true;
    this.stopFollowing();
  }

  private follow(): Promise<{ sessionId: string; stop: () => void } | undefined> {
    return this.events.follow({
      lastEventId: this.lastEventId,
      onEvent: (event) => {
        if (this.congested || this.stopped) return; // the store keeps it for the next follow
        this.lastEventId = event.id;
        const open = this.channel.write(
          formatSseEvent({ id: event.id, data: JSON.stringify(event.message) }),
        );
        if (!open) this.congested = true;
      },
      // While congested the end waits: following again replays the rest, then ends.
      onEnd: () => {
        if (!this.congested && !this.stopped) this.onEnd();
      },
    });
  }

  /** The connection took what it held: follow again from the last event written. */
  private async drained(): Promise<void> {
    if (!this.congested || this.stopped) return;
    this.stopFollowing();
    this.congested = false;
    const followed = await this.follow();
    if (this.stopped) {
      followed?.stop();
      return;
    }
    // The stream is gone from the store (it expired): nothing more can come.
    if (!followed) this.onEnd();
    else this.stopFollowing = followed.stop;
  }
}

/**
 * @module What waits for a reader that does not keep up. While the connection to the peer is
 * congested, outgoing messages wait here instead of piling up in the stream's buffer, so memory
 * stays bounded however much a handler reports:
 * - progress notifications are coalesced per progress token: the latest value replaces the one
 *   waiting, in its place (so it still goes before the response it belongs to);
 * - log messages (`notifications/message`) wait up to a bound; further ones are dropped and
 *   counted, and once the backlog is written the peer is told, in one warning, how many;
 * - everything else (responses, requests, other notifications) always waits: nothing accepted is
 *   lost. Their number is bounded by the requests in flight, since a congested transport stops
 *   reading new ones.
 */
import { LOG_MESSAGE, PROGRESS } from '../jsonrpc/methods.js';
import type { JsonRpcMessage } from '../jsonrpc/types.js';

/** Log messages that may wait for a congested reader before further ones are dropped. */
export const DEFAULT_MAX_HELD_LOGS = 100;

type Held = JsonRpcMessage | JsonRpcMessage[];

function progressKey(message: Held): string | undefined {
  if (Array.isArray(message) || !('method' in message) || message.method !== PROGRESS)
    return undefined;
  const token = message.params?.['progressToken'];
  return typeof token === 'string' || typeof token === 'number'
    ? `${typeof token}:${token}`
    : undefined;
}

function isLog(message: Held): boolean {
  return !Array.isArray(message) && 'method' in message && message.method === LOG_MESSAGE;
}

/** The messages held while a reader is congested. */
export class Outbox {
  private held: Array<Held | undefined> = [];
  private readonly progressAt = new Map<string, number>();
  private logs = 0;
  private dropped = 0;

  constructor(private readonly maxLogs: number = DEFAULT_MAX_HELD_LOGS) {}

  /** Number of messages waiting. */
  get size(): number {
    return this.held.length;
  }

  /** Holds `message` until {@link flush}; false when it was dropped (a log beyond the bound). */
  hold(message: Held): boolean {
    const key = progressKey(message);
    if (key !== undefined) {
      const at = this.progressAt.get(key);
      if (at !== undefined) {
        this.held[at] = message; // the latest progress wins, in the place of the first
        return true;
      }
      this.progressAt.set(key, this.held.length);
    } else if (isLog(message)) {
      if (this.logs >= this.maxLogs) {
        this.dropped++;
        return false;
      }
      this.logs++;
    }
    this.held.push(message);
    return true;
  }

  /**
   * Writes what is held, in order, until `write` reports congestion (returns false); true once
   * everything, including the notice of dropped log messages, is written.
   */
  flush(write: (message: Held) => boolean): boolean {
    let i = 0;
    let open = true;
    while (i < this.held.length && open) open = write(this.held[i++] as Held);
    if (i > 0) this.consume(i);
    if (this.held.length > 0 || !open) return false;
    if (this.dropped > 0) {
      const notice: JsonRpcMessage = {
        jsonrpc: '2.0',
        method: LOG_MESSAGE,
        params: {
          level: 'warning',
          logger: 'toolwire',
          data: `${this.dropped} log message(s) were dropped: the client was not reading fast enough`,
        },
      };
      this.dropped = 0;
      return write(notice);
    }
    return true;
  }

  private consume(count: number): void {
    this.held = this.held.slice(count);
    this.progressAt.clear();
    this.logs = 0;
    for (let j = 0; j < this.held.length; j++) {
      const message = this.held[j] as Held;
      const key = progressKey(message);
      if (key !== undefined) this.progressAt.set(key, j);
      else if (isLog(message)) this.logs++;
    }
  }
}

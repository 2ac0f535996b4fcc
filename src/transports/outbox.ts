/**
 * @module What waits for a reader that does not keep up. While the connection to the peer is
 * congested, outgoing messages wait here instead of piling up in the stream's buffer, so memory
 * stays bounded however much a handler reports:
 * - a notification that says where something stands is replaced by a later one of the same
 *   subject, in its place (so it still goes before the response it belongs to): progress per
 *   progress token, a task's state per task, the tool list's change;
 * - log messages (`notifications/message`) wait up to a bound; further ones are dropped and
 *   counted, and once the backlog is written the peer is told, in one warning, how many;
 * - everything else (responses, requests, other notifications) always waits: nothing accepted is
 *   lost. Their number is bounded by the requests in flight, since a congested transport stops
 *   reading new ones.
 * Used by the stdio server and by the streams of 2026 requests over HTTP (which have no event
 * store to catch up from).
 */
import {
  LOG_MESSAGE,
  PROGRESS,
  TASK_STATE,
  TASK_STATUS,
  TOOLS_LIST_CHANGED,
} from '../jsonrpc/methods.js';
import type { JsonRpcMessage } from '../jsonrpc/types.js';

/** Log messages that may wait for a congested reader before further ones are dropped. */
export const DEFAULT_MAX_HELD_LOGS = 100;

type Held = JsonRpcMessage | JsonRpcMessage[];

/** The subject a later message of which replaces this one while it waits, if any. */
function replacingKey(message: Held): string | undefined {
  if (Array.isArray(message) || !('method' in message) || 'id' in message) return undefined;
  let subject: unknown;
  switch (message.method) {
    case PROGRESS:
      subject = message.params?.['progressToken'];
      break;
    case TASK_STATUS:
    case TASK_STATE:
      subject = message.params?.['taskId'];
      break;
    case TOOLS_LIST_CHANGED:
      return message.method;
    default:
      return undefined;
  }
  return typeof subject === 'string' || typeof subject === 'number'
    ? `${message.method} ${typeof subject}:${subject}`
    : undefined;
}

function isLog(message: Held): boolean {
  return !Array.isArray(message) && 'method' in message && message.method === LOG_MESSAGE;
}

/** The messages held while a reader is congested. */
export class Outbox {
  private held: Array<Held | undefined> = [];
  private readonly replaceAt = new Map<string, number>();
  private logs = 0;
  private dropped = 0;

  constructor(private readonly maxLogs: number = DEFAULT_MAX_HELD_LOGS) {}

  /** Number of messages waiting. */
  get size(): number {
    return this.held.length;
  }

  /** Holds `message` until {@link flush}; false when it was dropped (a log beyond the bound). */
  hold(message: Held): boolean {
    const key = replacingKey(message);
    if (key !== undefined) {
      const at = this.replaceAt.get(key);
      if (at !== undefined) {
        this.held[at] = message; // the latest wins, in the place of the first
        return true;
      }
      this.replaceAt.set(key, this.held.length);
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
    this.replaceAt.clear();
    this.logs = 0;
    for (let j = 0; j < this.held.length; j++) {
      const message = this.held[j] as Held;
      const key = replacingKey(message);
      if (key !== undefined) this.replaceAt.set(key, j);
      else if (isLog(message)) this.logs++;
    }
  }
}

/**
 * @module A 2026-07-28 client's `subscriptions/listen` for `toolsListChanged` (basic/patterns/
 * subscriptions): one long-lived request whose stream carries the server's acknowledgement and
 * then its `notifications/tools/list_changed` (the client's notification table already refreshes
 * the tools on those). A stream that drops is opened again after a backoff with jitter (reset once
 * a stream has lived a while), and, once the new one is acknowledged, the tools are treated as
 * changed: notifications sent while no stream was open are lost. A refusal (a JSON-RPC error) or
 * an acknowledgement without `toolsListChanged` ends it for good: the cache hints' TTL alone
 * keeps the listing fresh then. Closing the connection ends it.
 */
import type { Connection } from '../../jsonrpc/connection.js';
import { RpcError } from '../../jsonrpc/errors.js';
import { isPlainObject } from '../../jsonrpc/guards.js';
import { sleep } from '../../jsonrpc/sleep.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import { Listen } from '../../protocol/methods.js';

/** First wait before opening a dropped stream again, doubled per attempt up to the cap. */
const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;
/** A stream that lived this long resets the backoff. */
const STEADY_MS = 30_000;

/** What the subscription needs of its session. */
export interface ListenHost {
  readonly connection: Connection;
  /** The params as sent: the session's `_meta` merged in. */
  withMeta(params: JsonObject): JsonObject;
  /** The tools may have changed without a notification (a stream was reopened). */
  missedChanges(): void;
  /** A fault that ends the subscription (a refusal) or is worth knowing. */
  report(error: Error): void;
}

/** The wait before attempt `attempt` (0-based): exponential, capped, with full jitter. */
function backoff(attempt: number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.min(attempt, 16));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** One client's `subscriptions/listen` for tool list changes, kept open while the connection is. */
export class ToolListSubscription {
  private readonly lifetime = new AbortController();
  /** Streams opened so far (the first one's acknowledgement is no sign of a missed change). */
  private opened = 0;
  /** An acknowledged stream is open: the server will announce tool changes. */
  private acknowledgedNow = false;

  constructor(private readonly host: ListenHost) {}

  /** Opens the stream (and keeps it open) in the background. */
  start(): void {
    void this.run();
  }

  /** True while an acknowledged stream is open: tool changes will be announced. */
  get live(): boolean {
    return this.acknowledgedNow && !this.ended;
  }

  /** Ends the subscription: the stream's request is cancelled (HTTP: its stream is closed). */
  stop(): void {
    this.acknowledgedNow = false;
    this.lifetime.abort();
  }

  /**
   * The server's acknowledgement of a listen stream: this one (there is one for tool changes per
   * client), or one of the tasks extension's listens for tasks, which name `taskIds` and are not
   * this subscription's business.
   */
  acknowledged(params: JsonObject | undefined): void {
    if (this.lifetime.signal.aborted) return;
    const filter = isPlainObject(params?.['notifications']) ? params['notifications'] : undefined;
    if (filter && 'taskIds' in filter && !('toolsListChanged' in filter)) return;
    const agreed = filter?.['toolsListChanged'] === true;
    if (!agreed) {
      // The server will not announce tool changes: the TTL of the cache hints has to do.
      this.stop();
      return;
    }
    this.acknowledgedNow = true;
    if (this.opened > 1) this.host.missedChanges();
  }

  private get ended(): boolean {
    return this.lifetime.signal.aborted || this.host.connection.closed;
  }

  private async run(): Promise<void> {
    for (let attempt = 0; !this.ended;) {
      const openedAt = Date.now();
      this.opened++;
      try {
        await this.host.connection.request(
          Listen.method,
          this.host.withMeta({ notifications: { toolsListChanged: true } }),
          {
            signal: this.lifetime.signal,
            timeoutMs: Number.POSITIVE_INFINITY,
            maxTotalTimeoutMs: Number.POSITIVE_INFINITY,
          },
        );
        // A result is the server ending the stream gracefully (shutting down): listen again.
      } catch (error) {
        this.acknowledgedNow = false;
        if (this.ended) return;
        if (error instanceof RpcError) {
          this.host.report(error);
          return;
        }
      }
      this.acknowledgedNow = false;
      attempt = Date.now() - openedAt >= STEADY_MS ? 0 : attempt + 1;
      await sleep(backoff(attempt), this.lifetime.signal);
    }
  }
}

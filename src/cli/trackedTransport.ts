/**
 * @module A transport wrapper that knows which sends are still on their way, so the CLI can let a
 * cancellation (`notifications/cancelled`, `tasks/cancel`) reach the server before it closes the
 * connection: closing an HTTP transport aborts its requests in flight.
 */
import type { JsonRpcMessage, MessageInfo, SendOptions, Transport } from '../index.js';

/** Delegates to `inner`, keeping the sends not yet settled. */
export class TrackedTransport implements Transport {
  onmessage?: (message: unknown, info?: MessageInfo) => void;
  ondecodeerror?: Transport['ondecodeerror'];
  onfailure?: Transport['onfailure'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private readonly pending = new Set<Promise<void>>();

  get networkTransport(): Transport['networkTransport'] {
    return this.inner.networkTransport;
  }

  get closeReason(): Error | undefined {
    return this.inner.closeReason;
  }

  constructor(readonly inner: Transport) {
    inner.onmessage = (m, i) => this.onmessage?.(m, i);
    inner.ondecodeerror = (e, h) => this.ondecodeerror?.(e, h);
    inner.onfailure = (id, e) => this.onfailure?.(id, e);
    inner.onclose = () => this.onclose?.();
    inner.onerror = (e) => this.onerror?.(e);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): Promise<void> {
    const sent = this.inner.send(message, options);
    const settled = sent.then(
      () => {},
      () => {},
    );
    this.pending.add(settled);
    void settled.then(() => this.pending.delete(settled));
    return sent;
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string | undefined, options?: { stateless?: boolean }): void {
    this.inner.setProtocolVersion?.(version, options);
  }

  get endpointKey(): string | undefined {
    return this.inner.endpointKey;
  }

  /** A new wrapper around a new inner transport to the same server (see Transport.respawn). */
  get respawn(): (() => Transport) | undefined {
    const { inner } = this;
    const respawn = inner.respawn;
    return respawn && (() => new TrackedTransport(respawn.call(inner)));
  }

  get cacheContext(): Transport['cacheContext'] {
    return this.inner.cacheContext?.bind(this.inner);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** Resolves once every send made so far has settled, or after `ms`, whichever comes first. */
  async settled(ms: number): Promise<void> {
    if (this.pending.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(this.pending),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
    ]);
    clearTimeout(timer);
  }
}

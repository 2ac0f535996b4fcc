/**
 * @module One incoming request while it is handled: what its handler sees (id, method, info,
 * cancellation) and what the connection tracks (its batch, whether the peer cancelled it). One
 * object per request, and its Cancellation is created only if someone asks for it: most requests
 * finish without ever needing one.
 */
import type { BatchCollector } from './batch.js';
import { Cancellation, type CancelSource, type CancelWatcher } from './cancellation.js';
import type { MessageInfo } from './transport.js';
import type { JsonRpcRequest, RequestId } from './types.js';

/**
 * What a request handler learns about the request besides its params; it is also where the
 * request's cancellation comes from (a {@link CancelSource}).
 */
export interface IncomingRequestContext extends CancelSource {
  readonly id: RequestId;
  readonly method: string;
  /** Cancelled when the peer cancels the request or the connection closes. */
  readonly cancellation: Cancellation;
  /** The same as an AbortSignal (created on first use). */
  readonly signal: AbortSignal;
  readonly info: MessageInfo | undefined;
  /** True when the request arrived inside a batch. */
  readonly inBatch: boolean;
}

/** The connection's record of a request in flight. */
export class IncomingRequest implements IncomingRequestContext, CancelSource {
  readonly id: RequestId;
  readonly method: string;
  /** Set when the peer cancelled it: no response may be sent. */
  cancelledByPeer = false;
  private token: Cancellation | undefined;
  private early: { reason: unknown } | undefined;
  private watcher: CancelWatcher | undefined;

  /**
   * The request itself while it waits for a slot; taken when its handler starts, so a record that
   * outlives the call (promoted by the GC) does not keep the params reachable.
   */
  private pendingRequest: JsonRpcRequest | undefined;

  constructor(
    request: JsonRpcRequest,
    readonly info: MessageInfo | undefined,
    /** The batch the request arrived in, whose response it joins. */
    readonly batch: BatchCollector | undefined,
  ) {
    this.id = request.id;
    this.method = request.method;
    this.pendingRequest = request;
  }

  /** Hands the request over to its handler, once. */
  take(): JsonRpcRequest {
    const request = this.pendingRequest as JsonRpcRequest;
    this.pendingRequest = undefined;
    return request;
  }

  /** True once the peer cancelled it: a request still waiting for a slot then never runs. */
  get abandoned(): boolean {
    return this.cancelledByPeer;
  }

  get inBatch(): boolean {
    return this.batch !== undefined;
  }

  get cancellation(): Cancellation {
    if (!this.token) {
      this.token = new Cancellation();
      if (this.early) this.token.cancel(this.early.reason);
    }
    return this.token;
  }

  get signal(): AbortSignal {
    return this.cancellation.signal;
  }

  /** Cancels the request's work (idempotent; the first reason wins). */
  cancel(reason: unknown): void {
    if (this.token) {
      if (this.token.isCancelled) return;
      this.token.cancel(reason);
    } else if (this.early) return;
    else this.early = { reason };
    const watcher = this.watcher;
    this.watcher = undefined;
    watcher?.cancelled(reason);
  }

  /** Tells `watcher` when the request is cancelled (at once if it already is). */
  watch(watcher: CancelWatcher): void {
    if (this.early || this.token?.isCancelled)
      watcher.cancelled(this.early ? this.early.reason : this.token?.reason);
    else this.watcher = watcher;
  }

  unwatch(): void {
    this.watcher = undefined;
  }
}

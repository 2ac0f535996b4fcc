/**
 * @module Outgoing requests awaiting their response: timers (per-request timeout, reset by
 * progress when asked, bounded by a hard total), abort signals and progress routing.
 */
import { LocalError, RpcError } from './errors.js';
import type { JsonObject, JsonRpcResponse, ProgressToken, RequestId } from './types.js';

/** One progress update of an outgoing request. */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** Timing and progress options of one outgoing request. */
export interface RequestTiming {
  /** Give up after this long without a response (or, with `resetTimeoutOnProgress`, without progress). */
  timeoutMs: number;
  /** Give up after this long in total, whatever progress arrives. */
  maxTotalTimeoutMs: number;
  /** Restart the timeout on every progress notification. */
  resetTimeoutOnProgress: boolean;
  /** Receives progress notifications; set means a progress token was sent. */
  onprogress: ((progress: Progress) => void) | undefined;
  /** False for a request that must never be cancelled (`initialize`). */
  cancellable: boolean;
}

interface Pending extends RequestTiming {
  readonly id: RequestId;
  readonly method: string;
  readonly startedAt: number;
  readonly resolve: (result: JsonObject) => void;
  readonly reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
  lastProgress: number;
  detachSignal: () => void;
}

/** Why a pending request was given up locally; the connection decides whether to send a cancel. */
export type GiveUpReason = { kind: 'timeout' | 'aborted'; error: LocalError };

/** Called when a pending request is given up because of its timer or its signal. */
export type GiveUpListener = (id: RequestId, cancellable: boolean, reason: GiveUpReason) => void;

function unrefTimer(timer: ReturnType<typeof setTimeout>): void {
  // Node timers keep the process alive; a pending request alone should not.
  (timer as { unref?: () => void }).unref?.();
}

/** Table of outgoing requests, keyed by id. */
export class PendingRequests {
  private readonly byId = new Map<RequestId, Pending>();

  constructor(private readonly onGiveUp: GiveUpListener) {}

  /** Number of requests awaiting a response. */
  get size(): number {
    return this.byId.size;
  }

  /** Registers a request; the returned promise settles with its response. */
  add(request: {
    id: RequestId;
    method: string;
    timing: RequestTiming;
    signal: AbortSignal | undefined;
  }): Promise<JsonObject> {
    const { id, method, timing, signal } = request;
    return new Promise<JsonObject>((resolve, reject) => {
      const entry: Pending = {
        ...timing,
        id,
        method,
        startedAt: Date.now(),
        resolve,
        reject,
        timer: undefined,
        lastProgress: -Infinity,
        detachSignal: () => {},
      };
      this.byId.set(id, entry);
      if (signal) {
        const onAbort = (): void => {
          const error = new LocalError('aborted', `Request ${method} was aborted`, {
            cause: signal.reason,
          });
          this.giveUp(entry, { kind: 'aborted', error });
        };
        signal.addEventListener('abort', onAbort, { once: true });
        entry.detachSignal = () => signal.removeEventListener('abort', onAbort);
      }
      this.arm(entry);
    });
  }

  /** Settles the request a response belongs to. Returns false for an unknown id (ignored). */
  settle(response: JsonRpcResponse): boolean {
    const id = response.id;
    if (id === undefined || id === null) return false;
    const entry = this.byId.get(id);
    if (!entry) return false;
    this.remove(entry);
    if ('result' in response) entry.resolve(response.result);
    else entry.reject(RpcError.fromWire(response.error));
    return true;
  }

  /** Fails one request locally (a send failure, an oversized response). */
  fail(id: RequestId, error: Error): boolean {
    const entry = this.byId.get(id);
    if (!entry) return false;
    this.remove(entry);
    entry.reject(error);
    return true;
  }

  /** Fails every pending request (the connection closed). */
  failAll(error: Error): void {
    for (const entry of [...this.byId.values()]) {
      this.remove(entry);
      entry.reject(error);
    }
  }

  /**
   * Routes a progress notification to its request. Values that do not increase are dropped, as
   * are tokens of requests that asked for no progress.
   */
  progress(token: ProgressToken, update: Progress): boolean {
    const entry = this.byId.get(token);
    if (!entry?.onprogress) return false;
    if (!(update.progress > entry.lastProgress)) return true;
    entry.lastProgress = update.progress;
    if (entry.resetTimeoutOnProgress) this.arm(entry);
    try {
      entry.onprogress(update);
    } catch {
      // A throwing progress callback must not break message processing.
    }
    return true;
  }

  private arm(entry: Pending): void {
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    const remainingTotal = entry.maxTotalTimeoutMs - (Date.now() - entry.startedAt);
    const delay = Math.max(0, Math.min(entry.timeoutMs, remainingTotal));
    if (!Number.isFinite(delay)) return;
    const hitTotal = remainingTotal <= entry.timeoutMs;
    entry.timer = setTimeout(() => {
      const limit = hitTotal ? entry.maxTotalTimeoutMs : entry.timeoutMs;
      const what = hitTotal ? 'maximum total time' : 'timeout';
      const error = new LocalError(
        'timeout',
        `Request ${entry.method} timed out (${what} of ${limit} ms)`,
      );
      this.giveUp(entry, { kind: 'timeout', error });
    }, delay);
    unrefTimer(entry.timer);
  }

  private giveUp(entry: Pending, reason: GiveUpReason): void {
    if (this.byId.get(entry.id) !== entry) return;
    this.remove(entry);
    entry.reject(reason.error);
    this.onGiveUp(entry.id, entry.cancellable, reason);
  }

  private remove(entry: Pending): void {
    this.byId.delete(entry.id);
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.detachSignal();
  }
}

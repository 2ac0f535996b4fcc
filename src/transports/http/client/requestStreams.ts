/**
 * @module The streams of a stateless (2026-07-28) client's requests, one per POST: on that
 * revision closing a request's response stream is how a client cancels it over HTTP
 * (basic/patterns/cancellation), and a `notifications/cancelled` is neither required nor expected.
 * Each request gets a signal of its own, aborted by its cancellation or by the transport's end.
 */
import { isPlainObject, isRequestId } from '../../../jsonrpc/guards.js';
import { CANCELLED } from '../../../jsonrpc/methods.js';
import type { JsonRpcMessage, RequestId } from '../../../jsonrpc/types.js';

interface Stream {
  readonly controller: AbortController;
  /** Removes the listener on the transport's lifetime. */
  readonly unlink: () => void;
}

/** The open POSTs of a stateless client transport, by request id. */
export class RequestStreams {
  private readonly open = new Map<RequestId, Stream>();

  constructor(
    private readonly lifetime: AbortSignal,
    /** The transport's requests awaiting a response: a cancelled one no longer does. */
    private readonly outstanding: Set<RequestId>,
  ) {}

  /** The signal of a new request's POST and stream: aborted by {@link cancel} or the lifetime. */
  signalFor(id: RequestId): AbortSignal {
    this.done(id);
    const controller = new AbortController();
    const abort = (): void => controller.abort();
    this.lifetime.addEventListener('abort', abort, { once: true });
    this.open.set(id, {
      controller,
      unlink: () => this.lifetime.removeEventListener('abort', abort),
    });
    return controller.signal;
  }

  /** Closes the request's stream (its cancellation); false when it is not open. */
  cancel(id: RequestId): boolean {
    const stream = this.open.get(id);
    if (!stream) return false;
    this.done(id);
    this.outstanding.delete(id);
    stream.controller.abort();
    return true;
  }

  /**
   * True when `message` is a cancellation (never posted on this revision): the request's stream
   * is closed if it is still open, and nothing is sent.
   */
  cancels(message: JsonRpcMessage | JsonRpcMessage[]): boolean {
    if (Array.isArray(message) || !('method' in message) || message.method !== CANCELLED)
      return false;
    const params = message.params;
    const id = isPlainObject(params) ? params['requestId'] : undefined;
    if (isRequestId(id)) this.cancel(id);
    return true;
  }

  /** The request was answered or failed: its stream is no longer the client's to close. */
  done(id: RequestId): void {
    const stream = this.open.get(id);
    if (!stream) return;
    this.open.delete(id);
    stream.unlink();
  }
}

/**
 * @module A JSON-RPC connection over one transport: request ids and correlation, per-request
 * timeouts, cancellation in both directions (with its races), progress routing, batches and a cap
 * on concurrent incoming requests. Server and client each compose one (STYLE.md §2.3).
 */
import { answeredIn, BatchCollector, batchRefusal } from './batch.js';
import { Deferred } from './deferred.js';
import { IncomingRequest, type IncomingRequestContext } from './incomingRequest.js';

export type { IncomingRequestContext } from './incomingRequest.js';
export type { OutgoingRequest, RequestInterceptor } from './interceptors.js';
export type {
  ConnectionOptions,
  NotificationHandler,
  RequestHandler,
  RequestOptions,
} from './connectionOptions.js';
import type {
  ConnectionOptions,
  NotificationHandler,
  RequestHandler,
  RequestOptions,
} from './connectionOptions.js';
import type { EnvelopeHint } from './decode.js';
import { ErrorCode, LocalError, RpcError, toRpcError } from './errors.js';
import { classifyMessage, isPlainObject, isRequestId } from './guards.js';
import { CANCELLED, INITIALIZE, PROGRESS } from './methods.js';
import { PendingRequests, type GiveUpReason, type Progress } from './pendingRequests.js';
import { RequestScheduler } from './requestScheduler.js';
import { EarlyCancels } from './earlyCancels.js';
import { abortedBeforeSending, closedBecause, sendFailure } from './connectionErrors.js';
import { cancelReason, progressOf } from './peerNotifications.js';
import { ProgressListeners } from './progressListeners.js';
import type { OutgoingRequest } from './interceptors.js';
import type { MessageInfo, SendOptions, Transport } from './transport.js';
import type {
  JsonObject,
  JsonRpcFailure,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  RequestId,
} from './types.js';

/** One JSON-RPC peer-to-peer connection. */
export class Connection {
  private readonly pending: PendingRequests;
  /** Incoming requests accepted and not yet answered: running, or waiting in the scheduler. */
  private readonly inFlight = new Map<RequestId, IncomingRequest>();
  private readonly scheduler: RequestScheduler<IncomingRequest>;
  private readonly earlyCancels = new EarlyCancels();
  private readonly closeListeners: Array<() => void> = [];
  private nextId = 1;
  private started = false;
  private closedFlag = false;
  private reason: LocalError | undefined;
  private refusing: { code: number; message: string } | undefined;

  constructor(
    readonly transport: Transport,
    private readonly handlers: { request: RequestHandler; notification: NotificationHandler },
    private readonly options: ConnectionOptions = {},
  ) {
    this.pending = new PendingRequests((id, cancellable, reason) =>
      this.onGiveUp(id, cancellable, reason),
    );
    this.scheduler = new RequestScheduler<IncomingRequest>(
      { maxRunning: options.maxInFlight ?? 64, maxQueued: options.maxQueued ?? 1024 },
      {
        ...(transport.pauseReceiving ? { pause: () => transport.pauseReceiving?.() } : {}),
        ...(transport.resumeReceiving ? { resume: () => transport.resumeReceiving?.() } : {}),
      },
      { run: (entry) => this.runRequest(entry), drop: (entry) => this.dropRequest(entry) },
    );
    transport.onmessage = (message, info) => this.receive(message, info);
    transport.ondecodeerror = (error, hint) => this.onDecodeError(error, hint);
    transport.onfailure = (id, error) => void this.pending.fail(id, error);
    transport.onclose = () => this.onTransportClosed(transport.closeReason);
    transport.onerror = (error) => this.report(error);
  }

  /** True once the transport closed. */
  get closed(): boolean {
    return this.closedFlag;
  }

  /**
   * Why the transport closed by itself, when it said (a stdio server's exit): what pending and
   * later requests fail with.
   */
  get closeReason(): LocalError | undefined {
    return this.reason;
  }

  /** Number of incoming requests being handled or waiting to be. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /** True when as many requests wait as may: an HTTP transport answers further ones 429. */
  get saturated(): boolean {
    return this.scheduler.saturated;
  }

  private readonly progressListeners = new ProgressListeners();

  /**
   * Receives progress for a token that outlives its request (a task's progress token stays valid
   * until the task ends). Values that do not increase are dropped. Returns the unsubscribe.
   */
  listenProgress(token: RequestId, listener: (progress: Progress) => void): () => void {
    return this.progressListeners.listen(token, listener);
  }

  /** Starts the transport. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.transport.start();
  }

  /** Registers a callback for when the connection closes. */
  onClose(listener: () => void): void {
    if (this.closedFlag) listener();
    else this.closeListeners.push(listener);
  }

  /** Closes the transport; pending requests fail with a `closed` LocalError. */
  async close(): Promise<void> {
    if (this.closedFlag) return;
    try {
      await this.transport.close();
    } finally {
      this.onTransportClosed();
    }
  }

  /** From now on, answer every new incoming request with this error (graceful shutdown). */
  refuseNewRequests(code: number, message: string): void {
    this.refusing = { code, message };
  }

  /** Sends a request and resolves with its result; rejects with RpcError or LocalError. */
  request(method: string, params?: JsonObject, options: RequestOptions = {}): Promise<JsonObject> {
    if (this.closedFlag) return Promise.reject(this.closedError());
    if (options.signal?.aborted)
      return Promise.reject(abortedBeforeSending(method, options.signal));
    const prefix = this.transport.requestIdPrefix;
    const id: RequestId = prefix === undefined ? this.nextId++ : `${prefix}${this.nextId++}`;
    const request: OutgoingRequest = { id, method, params };
    const intercept = this.options.interceptRequest;
    if (intercept === undefined) return this.send(request, options);
    const { scope } = options;
    return intercept(scope === undefined ? request : { id, method, params, scope }, (sent) =>
      this.send(sent === params ? request : { id, method, params: sent }, options),
    );
  }

  /** Sends a request under its chosen id; see {@link request}. */
  private send(request: OutgoingRequest, options: RequestOptions): Promise<JsonObject> {
    if (this.closedFlag) return Promise.reject(this.closedError());
    const { id, method, params } = request;
    let sentParams = params;
    if (options.onprogress) {
      const meta = isPlainObject(params?.['_meta']) ? params['_meta'] : {};
      sentParams = { ...params, _meta: { ...meta, progressToken: id } };
    }
    const timing = {
      timeoutMs: options.timeoutMs ?? this.options.requestTimeoutMs ?? 60_000,
      maxTotalTimeoutMs: options.maxTotalTimeoutMs ?? this.options.maxTotalTimeoutMs ?? 600_000,
      resetTimeoutOnProgress: options.resetTimeoutOnProgress ?? false,
      onprogress: options.onprogress,
      cancellable: options.cancellable !== false,
    };
    const result = this.pending.add({ id, method, timing, signal: options.signal });
    const message: JsonRpcRequest =
      sentParams === undefined
        ? { jsonrpc: '2.0', id, method }
        : { jsonrpc: '2.0', id, method, params: sentParams };
    const how =
      options.headers === undefined
        ? sendOptions(options.relatedRequestId)
        : { ...sendOptions(options.relatedRequestId), headers: options.headers };
    this.transport
      .send(message, how)
      .catch((error: unknown) => this.pending.fail(id, sendFailure(method, error)));
    return result;
  }

  /**
   * Sends a notification. Rejects when the connection is closed or the send fails. Answers the
   * transport's own promise, so nothing is kept per notification here (no async frame waiting on
   * a transport that holds it for a congested reader).
   */
  notify(method: string, params?: JsonObject, options: SendOptions = {}): Promise<void> {
    if (this.closedFlag) return Promise.reject(this.closedError());
    const intercept = this.options.interceptNotification;
    if (intercept === undefined) return this.sendNotification(method, params, options);
    return intercept({ method, params }, (sent) => this.sendNotification(method, sent, options));
  }

  /** Sends a notification as it is; see {@link notify}. */
  private sendNotification(
    method: string,
    params: JsonObject | undefined,
    options: SendOptions,
  ): Promise<void> {
    if (this.closedFlag) return Promise.reject(this.closedError());
    const message: JsonRpcNotification =
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    try {
      return this.transport.send(message, options);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  // ---- incoming ----

  private receive(value: unknown, info: MessageInfo | undefined): void {
    if (this.closedFlag) return;
    if (Array.isArray(value)) this.receiveBatch(value, info);
    else this.receiveOne(value, info, undefined);
  }

  private receiveBatch(items: unknown[], info: MessageInfo | undefined): void {
    const refused = batchRefusal(items, this.options.batchesAllowed?.() ?? false);
    if (refused !== undefined) return this.sendError(null, ErrorCode.InvalidRequest, refused);
    const collector = new BatchCollector(answeredIn(items), (responses) => {
      if (responses.length > 0) this.transmit(responses, undefined);
    });
    for (let i = 0; i < items.length; i++) this.receiveOne(items[i], info, collector);
  }

  private receiveOne(value: unknown, info: MessageInfo | undefined, batch?: BatchCollector): void {
    const c = classifyMessage(value);
    switch (c.kind) {
      case 'request':
        this.handleRequest(c.message, info, batch);
        return;
      case 'notification':
        this.handleNotification(c.message, info);
        return;
      case 'response':
        if (!this.pending.settle(c.message)) return; // unknown or late: ignored
        return;
      case 'invalid':
        if (c.isResponse) {
          this.report(
            new LocalError('invalid-response', `Ignored an invalid response: ${c.reason}`),
          );
          if (c.id !== null) {
            this.pending.fail(c.id, new LocalError('invalid-response', c.reason));
          }
          return;
        }
        this.respond(this.errorResponse(c.id, ErrorCode.InvalidRequest, c.reason), batch);
        return;
    }
  }

  private handleNotification(message: JsonRpcNotification, info: MessageInfo | undefined): void {
    const observe = this.options.observeNotification;
    if (observe === undefined) this.dispatchNotification(message, info);
    else
      try {
        observe(message, info, () => this.dispatchNotification(message, info));
      } catch (error) {
        this.report(error instanceof Error ? error : new Error(String(error)));
      }
  }

  private dispatchNotification(message: JsonRpcNotification, info: MessageInfo | undefined): void {
    if (message.method === CANCELLED) {
      const requestId = message.params?.['requestId'];
      if (!isRequestId(requestId)) return;
      const entry = this.inFlight.get(requestId);
      if (!entry) {
        // Finished, or not arrived yet (reordered): remembered briefly in case it comes.
        this.earlyCancels.remember(requestId);
        return;
      }
      // initialize must never be cancelled (lifecycle).
      if (entry.cancelledByPeer || entry.method === INITIALIZE) return;
      entry.cancelledByPeer = true;
      entry.cancel(new LocalError('aborted', cancelReason(message.params)));
      return;
    }
    if (message.method === PROGRESS) {
      const read = progressOf(message.params);
      if (read && !this.pending.progress(read.token, read.update))
        this.progressListeners.deliver(read.token, read.update);
      return;
    }
    try {
      this.handlers.notification(message, info);
    } catch (error) {
      this.report(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private handleRequest(
    request: JsonRpcRequest,
    info: MessageInfo | undefined,
    batch: BatchCollector | undefined,
  ): void {
    const { id } = request;
    if (this.refusing) {
      this.respond(this.errorResponse(id, this.refusing.code, this.refusing.message), batch);
      return;
    }
    if (this.earlyCancels.take(id) && request.method !== INITIALIZE) {
      // The peer cancelled it before it arrived: it never runs and gets no response.
      batch?.skip();
      return;
    }
    if (this.inFlight.has(id)) {
      const message = `Request id ${JSON.stringify(id)} is already in use by a request in flight`;
      this.respond(this.errorResponse(id, ErrorCode.InvalidRequest, message), batch);
      return;
    }
    const entry = new IncomingRequest(request, info, batch);
    this.inFlight.set(id, entry);
    if (!this.scheduler.admit(entry)) {
      this.inFlight.delete(id);
      const message = `Server busy: ${this.scheduler.queued} requests are already waiting on this connection; retry later`;
      this.respond(this.errorResponse(id, ErrorCode.ServerBusy, message), batch);
    }
  }

  /** Runs the handler of an admitted request (now, or when a slot frees up). */
  private runRequest(entry: IncomingRequest): void {
    const context: IncomingRequestContext = entry;
    let outcome: JsonObject | Promise<JsonObject> | Deferred<JsonObject>;
    try {
      outcome = this.handlers.request(entry.take(), context);
    } catch (error) {
      this.finishRequest(entry, { error });
      return;
    }
    if (outcome instanceof Deferred) {
      outcome.settleTo(
        (result) => this.finishRequest(entry, { result }),
        (error: unknown) => this.finishRequest(entry, { error }),
      );
    } else if (outcome instanceof Promise) {
      outcome.then(
        (result) => this.finishRequest(entry, { result }),
        (error: unknown) => this.finishRequest(entry, { error }),
      );
    } else {
      this.finishRequest(entry, { result: outcome });
    }
  }

  /** A request the peer cancelled while it waited: it never ran and gets no response. */
  private dropRequest(entry: IncomingRequest): void {
    if (this.inFlight.get(entry.id) === entry) this.inFlight.delete(entry.id);
    entry.batch?.skip();
  }

  private finishRequest(
    entry: IncomingRequest,
    outcome: { result: JsonObject } | { error: unknown },
  ): void {
    const { id } = entry;
    if (this.inFlight.get(id) === entry) this.inFlight.delete(id);
    if (this.closedFlag) return;
    this.answer(entry, outcome);
    // Answered first, then the slot goes to the next request waiting.
    this.scheduler.finished();
  }

  private answer(
    entry: IncomingRequest,
    outcome: { result: JsonObject } | { error: unknown },
  ): void {
    const { id, batch } = entry;
    if (entry.cancelledByPeer) {
      batch?.skip();
      return;
    }
    if ('result' in outcome) {
      this.respond({ jsonrpc: '2.0', id, result: outcome.result }, batch);
      return;
    }
    const { error } = outcome;
    const wire = toRpcError(error);
    if (wire.cause !== undefined && !(error instanceof RpcError)) {
      this.report(error instanceof Error ? error : new Error(String(error)));
    }
    this.respond({ jsonrpc: '2.0', id, error: wire.toJSON() }, batch);
  }

  private onDecodeError(error: RpcError, hint: EnvelopeHint): void {
    if (this.closedFlag) return;
    if (!hint.hasMethod) {
      // Probably a response we cannot read: fail the request it answers, if it is ours.
      if (hint.id !== undefined) {
        this.pending.fail(
          hint.id,
          new LocalError(
            'message-too-large',
            `The response could not be decoded: ${error.message}`,
            {
              cause: error,
            },
          ),
        );
        return;
      }
      if (error.code !== ErrorCode.ParseError) return;
    }
    this.respond(this.errorResponse(hint.id ?? null, error.code, error.message), undefined);
  }

  // ---- outgoing helpers ----

  private onGiveUp(id: RequestId, cancellable: boolean, reason: GiveUpReason): void {
    if (!cancellable || this.closedFlag) return;
    const text = reason.kind === 'timeout' ? reason.error.message : 'Aborted by the requester';
    this.notify(CANCELLED, { requestId: id, reason: text }).catch(() => {
      // The request is already failed locally; a cancel that cannot be sent changes nothing.
    });
  }

  private errorResponse(id: RequestId | null, code: number, message: string): JsonRpcFailure {
    if (id !== null) return { jsonrpc: '2.0', id, error: { code, message } };
    if (this.options.omitUnreadableErrorId?.() ?? false) {
      return { jsonrpc: '2.0', error: { code, message } };
    }
    return { jsonrpc: '2.0', id: null, error: { code, message } };
  }

  private sendError(id: RequestId | null, code: number, message: string): void {
    this.respond(this.errorResponse(id, code, message), undefined);
  }

  private respond(response: JsonRpcResponse, batch: BatchCollector | undefined): void {
    if (batch) batch.add(response);
    else this.transmit(response, response.id ?? undefined);
  }

  private transmit(
    message: JsonRpcMessage | JsonRpcMessage[],
    relatedId: RequestId | undefined,
  ): void {
    if (this.closedFlag) return;
    this.transport.send(message, sendOptions(relatedId)).catch(this.onResponseSendFailed);
  }

  /** Bound once: a response is sent per request, so no closure per send. */
  private readonly onResponseSendFailed = (error: unknown): void => {
    this.report(new LocalError('send-failed', 'Could not send a response', { cause: error }));
  };

  private report(error: Error): void {
    this.options.onerror?.(error);
  }

  /** The error of a request made once the connection closed. */
  private closedError(): LocalError {
    return this.reason ?? new LocalError('closed', 'Connection is closed');
  }

  private onTransportClosed(reason?: Error): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    const error = closedBecause(reason);
    if (reason) this.reason = error;
    this.pending.failAll(error);
    this.scheduler.clear();
    for (const entry of this.inFlight.values()) {
      entry.cancel(error);
    }
    this.inFlight.clear();
    for (const listener of this.closeListeners.splice(0)) {
      try {
        listener();
      } catch (error) {
        this.report(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }
}

function sendOptions(relatedRequestId: RequestId | undefined): SendOptions | undefined {
  return relatedRequestId === undefined ? undefined : { relatedRequestId };
}

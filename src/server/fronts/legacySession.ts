/**
 * @module The 2025 front: one client connection on the server side. It owns what the 2025 era
 * keeps per session (the `initialize` handshake and negotiated revision, the log level, which
 * tool list changes the client was told of, and the state shared with other instances) and hands
 * every negotiated request to the server's dispatcher with the session's request scope.
 */
import {
  Connection,
  type IncomingRequestContext,
  type RequestOptions,
} from '../../jsonrpc/connection.js';
import { ErrorCode, RpcError } from '../../jsonrpc/errors.js';
import type { SessionObserver } from '../../jsonrpc/interceptors.js';
import type { Identity, Transport, TransportNetwork } from '../../jsonrpc/transport.js';
import type {
  JsonObject,
  JsonRpcNotification,
  JsonRpcRequest,
  RequestId,
} from '../../jsonrpc/types.js';
import type { RevisionProfile } from '../../protocol/eras/era.js';
import { era2025 } from '../../protocol/eras/rev2025/era.js';
import { opensModernEra } from '../../protocol/eras/classify.js';
import { negotiatedRevision } from '../../protocol/eras/rev2025/handshake.js';
import { unsupportedVersion } from '../../protocol/eras/rev2026/errors.js';
import {
  Initialize,
  Initialized,
  LoggingMessage,
  Ping,
  ProgressNotification,
  TaskStatus,
  ToolListChanged,
} from '../../protocol/methods.js';
import { parseInitializeParams } from '../../protocol/params.js';
import {
  LOGGING_LEVELS,
  type LoggingLevel,
  type LoggingMessageParams,
  type ProgressParams,
} from '../../protocol/types.js';
import type { ProtocolVersion, Revision } from '../../protocol/versions.js';
import type { Task } from '../../tasks/eras/rev2025/taskWire.js';
import type { HandlerOutcome } from '../dispatch/handlerTable.js';
import type { InputChannel } from '../input/inputChannel.js';
import { combinedObserver } from '../middleware/instrumentation.js';
import {
  restoreState,
  snapshotOf,
  type PersistSessionState,
  type SessionState,
} from './sessionState.js';
import type { SessionInfo } from '../toolContext.js';
import type { LegacyFront } from './legacyFront.js';
import { LegacyScope, type LegacySessionInfo } from './legacyScope.js';
import { ModernConnection } from './modernConnection.js';
import type { SessionHost } from './sessionHost.js';

type State = 'awaiting-initialize' | 'ready' | 'closed';

function randomId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** How a session starts (see `McpServer.connect`). */
export interface SessionOptions {
  identity?: Identity | undefined;
  clientAddress?: string | undefined;
  sessionId?: string | undefined;
  assumeVersion?: ProtocolVersion | undefined;
  transient?: boolean | undefined;
  restore?: JsonObject | undefined;
  persist?: PersistSessionState | undefined;
}

/** The server side of one connection (the 2025 front). */
export class ServerSession implements LegacyFront {
  readonly id: string;
  readonly connection: Connection;
  private state: State = 'awaiting-initialize';
  /** The request scope, once the session negotiated (or was restored). */
  private scope: LegacyScope | undefined;
  /** Set when the client opened in the 2026 era: every request is then the 2026 front's. */
  private modern: ModernConnection | undefined;
  private logThreshold = 0;
  private initializedNotified = false;
  /** The registry change count this session has been told about (or listed after). */
  private knownChanges = 0;

  private readonly connectionIdentity: Identity | undefined;
  private readonly connectionAddress: string | undefined;
  /** What observes this session for instrumentation, if anything does. */
  private readonly observer: SessionObserver | undefined;

  constructor(
    private readonly host: SessionHost,
    transport: Transport,
    options: SessionOptions = {},
  ) {
    this.transient = options.transient === true;
    this.networkTransport = transport.networkTransport;
    this.network = transport.network;
    this.id = options.sessionId ?? randomId();
    this.connectionIdentity = options.identity;
    this.connectionAddress = options.clientAddress;
    this.persist = options.persist;
    if (options.restore !== undefined) {
      // Another instance negotiated this session (HTTP behind a load balancer): pick it up.
      const restored = restoreState(options.restore, host.protocolVersions);
      if (!restored) throw new Error('The stored session state cannot be restored');
      this.adopt(restored);
    }
    if (options.assumeVersion !== undefined) {
      // Stateless HTTP: each request arrives on a fresh session that never saw initialize.
      this.negotiated({
        protocolVersion: options.assumeVersion,
        clientInfo: { name: 'unknown', version: 'unknown' },
        clientCapabilities: {},
      });
      this.initializedNotified = true;
    }
    const observer = host.instrumentations.length === 0 ? undefined : this.observed();
    this.observer = observer;
    this.connection = new Connection(
      transport,
      {
        request: (request, context) => this.handleRequest(request, context),
        notification: (notification) => this.handleNotification(notification),
      },
      {
        maxInFlight: host.connectionOptions.maxInFlight,
        maxQueued: host.connectionOptions.maxQueued,
        requestTimeoutMs: host.connectionOptions.requestTimeoutMs,
        batchesAllowed: () => this.scope !== undefined && this.scope.profile.features.batches,
        omitUnreadableErrorId: () =>
          this.modern !== undefined ||
          (this.scope !== undefined && this.scope.profile.features.omitUnreadableErrorId),
        onerror: (error) => host.callDependencies.report(error, 'connection fault'),
        ...(observer?.outgoingRequest ? { interceptRequest: observer.outgoingRequest } : {}),
        ...(observer?.outgoingNotification
          ? { interceptNotification: observer.outgoingNotification }
          : {}),
        ...(observer?.incomingNotification
          ? { observeNotification: observer.incomingNotification }
          : {}),
      },
    );
    this.connection.onClose(() => {
      this.state = 'closed';
      host.sessionClosed(this);
      observer?.ended?.({});
    });
  }

  /** The observer of this session the server's instrumentation asks for. */
  private observed(): SessionObserver | undefined {
    const observers: SessionObserver[] = [];
    for (const instrumentation of this.host.instrumentations) {
      try {
        const observer = instrumentation.session(this);
        if (observer) observers.push(observer);
      } catch (error) {
        this.host.callDependencies.report(error, 'instrumentation');
      }
    }
    return combinedObserver(observers);
  }

  /** Negotiated details; throws before `initialize`. */
  get info(): SessionInfo {
    return this.negotiatedScope().session;
  }

  /** The negotiated revision's profile; throws before `initialize`. */
  get profile(): RevisionProfile {
    return this.negotiatedScope().profile;
  }

  private negotiatedScope(): LegacyScope {
    if (!this.scope) throw new Error('The session is not initialized');
    return this.scope;
  }

  /** True when the session lives for one request only (stateless HTTP). */
  readonly transient: boolean;

  /** How this session's messages travel (from its transport), when known. */
  readonly networkTransport: 'pipe' | 'tcp' | 'inproc' | undefined;

  /** What the transport knows of the network (HTTP), when it says. */
  readonly network: TransportNetwork | undefined;

  private readonly persist: PersistSessionState | undefined;

  /** Becomes ready with what was negotiated: builds the scope every request is served with. */
  private negotiated(info: Omit<LegacySessionInfo, 'id'>): LegacyScope {
    const profile = era2025.profile(info.protocolVersion);
    if (!profile) throw new Error(`Not a 2025 revision: ${String(info.protocolVersion)}`);
    this.scope = new LegacyScope({
      front: this,
      session: { id: this.id, ...info },
      profile,
      connection: { identity: this.connectionIdentity, address: this.connectionAddress },
      tasksRun: this.host.tasks !== undefined,
    });
    this.state = 'ready';
    return this.scope;
  }

  /** Takes over a state negotiated elsewhere. */
  private adopt(state: SessionState): void {
    this.negotiated(state.info);
    this.logThreshold = state.logLevel === undefined ? 0 : LOGGING_LEVELS.indexOf(state.logLevel);
    this.initializedNotified = true;
    this.knownChanges = this.host.changeCount();
  }

  /** The negotiated state as a snapshot (undefined before initialize). */
  snapshot(): JsonObject | undefined {
    if (!this.scope) return undefined;
    const { id: _id, ...info } = this.scope.session;
    return snapshotOf({
      info,
      logLevel: this.logThreshold === 0 ? undefined : LOGGING_LEVELS[this.logThreshold],
    });
  }

  /** Applies a state another instance saved for this session (its log level may have changed). */
  applyState(snapshot: JsonObject): void {
    const restored = restoreState(snapshot, this.host.protocolVersions);
    if (!restored || this.state !== 'ready') return;
    this.logThreshold =
      restored.logLevel === undefined ? 0 : LOGGING_LEVELS.indexOf(restored.logLevel);
  }

  /** Saves the state where other instances read it; a failure fails the request that changed it. */
  private async saveState(): Promise<void> {
    const snapshot = this.snapshot();
    if (!this.persist || !snapshot) return;
    try {
      await this.persist(snapshot);
    } catch (error) {
      this.host.callDependencies.report(error, 'session store');
      throw new RpcError(
        ErrorCode.InternalError,
        'The session could not be stored; try again later',
      );
    }
  }

  /** Sends `notifications/tasks/status` (optional in the spec; the requestor polls anyway). */
  sendTaskStatus(task: Task): void {
    if (this.state !== 'ready') return;
    this.connection.notify(TaskStatus.method, task as unknown as JsonObject).catch(() => {});
  }

  /** True while requests are being handled (HTTP shutdown waits; idle reaping skips it). */
  get busy(): boolean {
    return this.connection.inFlightCount > 0;
  }

  /** True when as many requests wait as may (Streamable HTTP then answers 429). */
  get saturated(): boolean {
    return this.connection.saturated;
  }

  /** Ends the connection carrying a request's response stream, if the transport has streams. */
  closeStream(requestId: RequestId): void {
    this.connection.transport.closeStream?.(requestId);
  }

  /** True once `initialize` was answered. */
  get initialized(): boolean {
    return this.scope !== undefined;
  }

  /** True once the client sent `notifications/initialized`. */
  get clientReady(): boolean {
    return this.initializedNotified;
  }

  /**
   * The negotiated revision, once initialized; on a connection opened in the 2026 era, the one
   * its last request named.
   */
  get protocolVersion(): Revision | undefined {
    return this.modern ? this.modern.protocolVersion : this.scope?.session.protocolVersion;
  }

  /** The identity given to `connect()`, if any (HTTP transports may add one per message). */
  get identity(): Identity | undefined {
    return this.connectionIdentity;
  }

  /** Starts the transport. */
  start(): Promise<void> {
    return this.connection.start();
  }

  /** Ends the session and its transport. */
  close(): Promise<void> {
    return this.connection.close();
  }

  /**
   * Sends `notifications/tools/list_changed` if the session is initialized and the registry changed
   * since it initialized (or was last told).
   */
  notifyToolListChanged(changeCount: number): void {
    if (this.state !== 'ready' || changeCount <= this.knownChanges) return;
    this.knownChanges = changeCount;
    this.connection.notify(ToolListChanged.method).catch(() => {});
  }

  /** Sends a log message to the client if it passes the client's level. */
  log(message: LoggingMessageParams, relatedRequestId?: RequestId): void {
    if (this.state !== 'ready' || LOGGING_LEVELS.indexOf(message.level) < this.logThreshold) return;
    const options = relatedRequestId === undefined ? {} : { relatedRequestId };
    const params = message as unknown as JsonObject;
    this.connection.notify(LoggingMessage.method, params, options).catch(() => {});
  }

  /** Sends a progress notification for a request the client is waiting on. */
  sendProgress(params: ProgressParams, relatedRequestId: RequestId | undefined): void {
    const withMessage = this.scope !== undefined && this.scope.profile.features.progressMessage;
    const { message, ...rest } = params;
    const sent: JsonObject = withMessage && message !== undefined ? { ...rest, message } : rest;
    const options = relatedRequestId === undefined ? {} : { relatedRequestId };
    this.connection.notify(ProgressNotification.method, sent, options).catch(() => {});
  }

  /** Sends a request to the client. */
  requestClient(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject> {
    return this.connection.request(method, params, options);
  }

  /** How this session's calls ask the client for input: its scope's push channel. */
  get input(): InputChannel {
    return this.negotiatedScope().input;
  }

  /** Pings the client. */
  async ping(options: RequestOptions = {}): Promise<void> {
    await this.connection.request(Ping.method, undefined, options);
  }

  /**
   * Sets the log threshold (the `logging/setLevel` handler calls it); stored first when the state
   * is shared with other instances.
   */
  setLogLevel(level: LoggingLevel): HandlerOutcome {
    const previous = this.logThreshold;
    this.logThreshold = LOGGING_LEVELS.indexOf(level);
    if (!this.persist) return {};
    return this.saveState().then(
      () => ({}),
      (error: unknown) => {
        this.logThreshold = previous;
        throw error;
      },
    );
  }

  private handleRequest(request: JsonRpcRequest, context: IncomingRequestContext): HandlerOutcome {
    if (this.modern !== undefined) return this.modern.serve(request, context);
    if (this.state === 'awaiting-initialize' && opensModernEra(request)) {
      const modern = this.openedModern();
      if (modern !== undefined) return modern.serve(request, context);
    }
    const scope = this.scope;
    // initialize (and anything before it) never goes through middleware: no revision is agreed.
    if (this.state !== 'ready' || scope === undefined || request.method === Initialize.method)
      return this.unchained(request, context);
    return this.host.dispatcher.dispatch(request, context, scope);
  }

  /** A request no middleware sees, through the instrumentation's hook when there is one. */
  private unchained(request: JsonRpcRequest, context: IncomingRequestContext): HandlerOutcome {
    const observe = this.observer?.incomingRequest;
    if (!observe) return this.opening(request, context);
    const view = {
      id: request.id,
      method: request.method,
      params: request.params,
      info: context.info,
    };
    // Only initialize and ping are served before the session is ready: neither is deferred.
    return observe(view, async () => (await this.opening(request, context)) as JsonObject);
  }

  /**
   * A first request that opens the 2026 era (basic/versioning: a `_meta` naming a revision, or
   * `server/discover`) hands the connection to the 2026 front for good, when the server serves
   * that era; undefined for any other.
   */
  private openedModern(): ModernConnection | undefined {
    const front = this.host.modern;
    if (front === undefined) return undefined;
    return (this.modern = new ModernConnection(front, this.connection, {
      identity: this.connectionIdentity,
      clientAddress: this.connectionAddress,
    }));
  }

  /** What a session serves before it is ready, and `initialize` at any time. */
  private opening(request: JsonRpcRequest, context: IncomingRequestContext): HandlerOutcome {
    if (request.method === Ping.method) return {};
    if (request.method === Initialize.method) return this.initialize(request, context);
    throw new RpcError(
      ErrorCode.InvalidRequest,
      `Received ${request.method} before initialize; send initialize first`,
    );
  }

  /** Answers `initialize`: agrees on a revision, then (when shared) stores the session first. */
  private initialize(request: JsonRpcRequest, context: IncomingRequestContext): HandlerOutcome {
    if (context.inBatch)
      throw new RpcError(ErrorCode.InvalidRequest, 'initialize must not be part of a batch');
    if (this.state !== 'awaiting-initialize') {
      throw new RpcError(
        ErrorCode.InvalidRequest,
        'initialize was already received on this session',
      );
    }
    const params = parseInitializeParams(request.params);
    const front = this.host.modern;
    // A server of the 2026 era only names what it serves: a legacy client cannot fall forward.
    if (this.host.protocolVersions.length === 0 && front !== undefined)
      throw unsupportedVersion(params.protocolVersion, front.versions);
    const scope = this.negotiated({
      protocolVersion: negotiatedRevision(params.protocolVersion, this.host.protocolVersions),
      clientInfo: params.clientInfo,
      clientCapabilities: params.capabilities,
    });
    this.knownChanges = this.host.changeCount();
    const result = this.host.initializeResult(scope.profile, {
      tasks: scope.tasksOffered(this.connectionIdentity),
    }) as unknown as JsonObject;
    if (!this.persist) return result;
    // Answered only once stored: the client's next request may reach another instance.
    return this.saveState().then(
      () => result,
      (error: unknown) => {
        this.scope = undefined;
        this.state = 'awaiting-initialize';
        throw error;
      },
    );
  }

  private handleNotification(notification: JsonRpcNotification): void {
    if (notification.method === Initialized.method) this.initializedNotified = true;
    // Other client notifications (roots/list_changed...) need no action from a tools server.
  }
}

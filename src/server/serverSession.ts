/**
 * @module One client connection on the server side: the initialize handshake and version
 * negotiation, the method table, logging level, and the session's half of the tool pipeline.
 */
import {
  Connection,
  type IncomingRequestContext,
  type RequestOptions,
} from '../jsonrpc/connection.js';
import type { Deferred } from '../jsonrpc/deferred.js';
import { RawJson } from '../jsonrpc/rawJson.js';
import { ErrorCode, RpcError } from '../jsonrpc/errors.js';
import type { SessionObserver } from '../jsonrpc/interceptors.js';
import type { Identity, Transport, TransportNetwork } from '../jsonrpc/transport.js';
import type {
  JsonObject,
  JsonRpcNotification,
  JsonRpcRequest,
  RequestId,
} from '../jsonrpc/types.js';
import { parseCursor, parseInitializeParams, parseLoggingLevel } from '../protocol/params.js';
import {
  implementationForRevision,
  serverCapabilitiesForRevision,
} from '../protocol/projection.js';
import {
  LOGGING_LEVELS,
  type Implementation,
  type InitializeResult,
  type ListToolsResult,
  type LoggingMessageParams,
  type ProgressParams,
  type ServerCapabilities,
  type Tool,
} from '../protocol/types.js';
import { featuresOf, type ProtocolVersion } from '../protocol/versions.js';
import { callThroughChain } from './callChain.js';
import { callTool, type CallDependencies } from './callTool.js';
import { combinedObserver, type ServerInstrumentation } from './instrumentation.js';
import type { MiddlewareChain } from './middlewareChain.js';
import { PolicyRequest } from './middlewareRequest.js';
import { serveTaskMethod } from './taskMethods.js';
import { ownerOf, type TaskRuntime } from './taskRuntime.js';
import type { Task } from '../tasks/taskTypes.js';
import {
  restoreState,
  snapshotOf,
  type PersistSessionState,
  type SessionState,
} from './sessionState.js';
import type { SessionInfo, SessionPort } from './toolContext.js';

/** What a session needs from its server. */
export interface SessionHost {
  readonly protocolVersions: readonly ProtocolVersion[];
  /** How many times the tool registry has changed so far. */
  changeCount(): number;
  initializeResult(version: ProtocolVersion, options: { tasks: boolean }): InitializeResult;
  /** The task runtime, when the server runs task-augmented calls. */
  readonly tasks: TaskRuntime | undefined;
  listTools(
    session: SessionPort,
    identity: Identity | undefined,
    cursor: string | undefined,
  ): ListToolsResult | RawJson<ListToolsResult>;
  readonly callDependencies: CallDependencies;
  /** The server-wide middleware (empty: requests take the inline path). */
  readonly middleware: MiddlewareChain;
  /** The instrumentation middleware brought (empty: sessions build nothing of it). */
  readonly instrumentations: readonly ServerInstrumentation[];
  /** The enabled tool of that name as `version` lists it, whoever asks (middleware see it). */
  toolDefinition(name: unknown, version: ProtocolVersion): Tool | undefined;
  readonly connectionOptions: { maxInFlight: number; maxQueued: number; requestTimeoutMs: number };
  sessionClosed(session: ServerSession): void;
}

type State = 'awaiting-initialize' | 'ready' | 'closed';

function randomId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The server side of one connection. */
export class ServerSession implements SessionPort {
  readonly id: string;
  readonly connection: Connection;
  private state: State = 'awaiting-initialize';
  private sessionInfo: SessionInfo | undefined;
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
    options: {
      identity?: Identity | undefined;
      clientAddress?: string | undefined;
      sessionId?: string | undefined;
      assumeVersion?: ProtocolVersion | undefined;
      transient?: boolean | undefined;
      restore?: JsonObject | undefined;
      persist?: PersistSessionState | undefined;
    } = {},
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
      this.sessionInfo = {
        id: this.id,
        protocolVersion: options.assumeVersion,
        clientInfo: { name: 'unknown', version: 'unknown' },
        clientCapabilities: {},
      };
      this.state = 'ready';
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
        batchesAllowed: () =>
          this.sessionInfo !== undefined && featuresOf(this.sessionInfo.protocolVersion).batches,
        omitUnreadableErrorId: () =>
          this.sessionInfo !== undefined &&
          featuresOf(this.sessionInfo.protocolVersion).omitUnreadableErrorId,
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
    if (!this.sessionInfo) throw new Error('The session is not initialized');
    return this.sessionInfo;
  }

  /** True when the session lives for one request only (stateless HTTP). */
  readonly transient: boolean;

  /** How this session's messages travel (from its transport), when known. */
  readonly networkTransport: 'pipe' | 'tcp' | 'inproc' | undefined;

  /** What the transport knows of the network (HTTP), when it says. */
  readonly network: TransportNetwork | undefined;

  private readonly persist: PersistSessionState | undefined;

  /** Takes over a state negotiated elsewhere. */
  private adopt(state: SessionState): void {
    this.sessionInfo = { id: this.id, ...state.info };
    this.logThreshold = state.logLevel === undefined ? 0 : LOGGING_LEVELS.indexOf(state.logLevel);
    this.state = 'ready';
    this.initializedNotified = true;
    this.knownChanges = this.host.changeCount();
  }

  /** The negotiated state as a snapshot (undefined before initialize). */
  snapshot(): JsonObject | undefined {
    if (!this.sessionInfo) return undefined;
    const { id: _id, ...info } = this.sessionInfo;
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

  /**
   * Whether tasks are offered to a caller: the server runs them, the revision has them, and the
   * caller can be told apart (an identity, or a session that outlives the request).
   */
  private tasksFor(identity: Identity | undefined): boolean {
    const version = this.sessionInfo?.protocolVersion;
    return (
      this.host.tasks !== undefined &&
      version !== undefined &&
      featuresOf(version).tasks &&
      (identity !== undefined || !this.transient)
    );
  }

  /** Sends `notifications/tasks/status` (optional in the spec; the requestor polls anyway). */
  sendTaskStatus(task: Task): void {
    if (this.state !== 'ready') return;
    this.connection
      .notify('notifications/tasks/status', task as unknown as JsonObject)
      .catch(() => {});
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
    return this.sessionInfo !== undefined;
  }

  /** True once the client sent `notifications/initialized`. */
  get clientReady(): boolean {
    return this.initializedNotified;
  }

  /** The negotiated revision, once initialized. */
  get protocolVersion(): ProtocolVersion | undefined {
    return this.sessionInfo?.protocolVersion;
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
    this.connection.notify('notifications/tools/list_changed').catch(() => {});
  }

  /** Sends a log message to the client if it passes the client's level. */
  log(message: LoggingMessageParams, relatedRequestId?: RequestId): void {
    if (this.state !== 'ready' || LOGGING_LEVELS.indexOf(message.level) < this.logThreshold) return;
    const options = relatedRequestId === undefined ? {} : { relatedRequestId };
    const params = message as unknown as JsonObject;
    this.connection.notify('notifications/message', params, options).catch(() => {});
  }

  /** Sends a progress notification for a request the client is waiting on. */
  sendProgress(params: ProgressParams, relatedRequestId: RequestId | undefined): void {
    const withMessage =
      this.sessionInfo !== undefined &&
      featuresOf(this.sessionInfo.protocolVersion).progressMessage;
    const { message, ...rest } = params;
    const sent: JsonObject = withMessage && message !== undefined ? { ...rest, message } : rest;
    const options = relatedRequestId === undefined ? {} : { relatedRequestId };
    this.connection.notify('notifications/progress', sent, options).catch(() => {});
  }

  /** Sends a request to the client. */
  requestClient(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject> {
    return this.connection.request(method, params, options);
  }

  /** Pings the client. */
  async ping(options: RequestOptions = {}): Promise<void> {
    await this.connection.request('ping', undefined, options);
  }

  private handleRequest(
    request: JsonRpcRequest,
    context: IncomingRequestContext,
  ): JsonObject | Promise<JsonObject> | Deferred<JsonObject> {
    // initialize (and anything before it) never goes through middleware: no revision is agreed.
    if (this.state !== 'ready' || request.method === 'initialize')
      return this.unchained(request, context);
    const chain = this.host.middleware;
    if (chain.empty) return this.serve(request, context);
    return this.throughChain(chain, request, context);
  }

  /** A request no middleware sees, through the instrumentation's hook when there is one. */
  private unchained(
    request: JsonRpcRequest,
    context: IncomingRequestContext,
  ): JsonObject | Promise<JsonObject> | Deferred<JsonObject> {
    const observe = this.observer?.incomingRequest;
    if (!observe) return this.serve(request, context);
    const view = {
      id: request.id,
      method: request.method,
      params: request.params,
      info: context.info,
    };
    // Only initialize and ping are served before the session is ready: neither is deferred.
    return observe(view, async () => (await this.serve(request, context)) as JsonObject);
  }

  /** A request through the server-wide middleware (see middleware.ts). */
  private throughChain(
    chain: MiddlewareChain,
    request: JsonRpcRequest,
    context: IncomingRequestContext,
  ): Promise<JsonObject> {
    const info = this.info;
    const identity = context.info?.identity ?? this.connectionIdentity;
    const clientAddress = context.info?.clientAddress ?? this.connectionAddress;
    const isCall = request.method === 'tools/call';
    const policy = new PolicyRequest(
      {
        method: request.method,
        params: request.params,
        requestId: request.id,
        session: info,
        identity,
        clientAddress,
        networkTransport: this.networkTransport,
        network: this.network,
        tool: isCall
          ? this.host.toolDefinition(request.params?.['name'], info.protocolVersion)
          : undefined,
      },
      context,
    );
    if (isCall) {
      const call = {
        id: request.id,
        params: request.params,
        incoming: context,
        identity,
        clientAddress,
        policy,
      };
      return callThroughChain({ chain, deps: this.host.callDependencies }, this, call);
    }
    let page: RawJson | undefined;
    const answered = chain.run(policy, undefined, () => {
      const outcome = this.serve(request, context);
      if (!(outcome instanceof RawJson)) return outcome;
      // A cached tools/list page: middleware see (and may change) the value itself.
      page = outcome;
      return outcome.value as JsonObject;
    });
    // Passed through unchanged: sent as the cached text again, not serialised anew.
    return answered.then((result) =>
      page !== undefined && result === page.value ? (page as unknown as JsonObject) : result,
    );
  }

  /** The method table, after any middleware. */
  private serve(
    request: JsonRpcRequest,
    context: IncomingRequestContext,
  ): JsonObject | Promise<JsonObject> | Deferred<JsonObject> {
    const method = request.method;
    if (method === 'ping') return {};
    if (method === 'initialize') return this.initialize(request, context);
    if (this.state !== 'ready') {
      throw new RpcError(
        ErrorCode.InvalidRequest,
        `Received ${method} before initialize; send initialize first`,
      );
    }
    const identity = context.info?.identity ?? this.connectionIdentity;
    switch (method) {
      case 'tools/list':
        return this.host.listTools(
          this,
          identity,
          parseCursor(request.params),
        ) as unknown as JsonObject;
      case 'tools/call':
        return callTool(this.host.callDependencies, this, {
          id: request.id,
          params: request.params,
          incoming: context,
          identity,
          clientAddress: context.info?.clientAddress ?? this.connectionAddress,
        }) as unknown as JsonObject | Promise<JsonObject> | Deferred<JsonObject>;
      case 'tasks/get':
      case 'tasks/result':
      case 'tasks/list':
      case 'tasks/cancel': {
        const runtime = this.host.tasks;
        if (!runtime || !this.tasksFor(identity))
          throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
        return serveTaskMethod(runtime, {
          method,
          params: request.params,
          owner: ownerOf(this.id, identity),
          sessionId: this.id,
          incoming: context,
        });
      }
      case 'logging/setLevel': {
        const previous = this.logThreshold;
        this.logThreshold = LOGGING_LEVELS.indexOf(parseLoggingLevel(request.params));
        if (!this.persist) return {};
        return this.saveState().then(
          () => ({}),
          (error: unknown) => {
            this.logThreshold = previous;
            throw error;
          },
        );
      }
      default:
        throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method.slice(0, 200)}`);
    }
  }

  private initialize(
    request: JsonRpcRequest,
    context: IncomingRequestContext,
  ): JsonObject | Promise<JsonObject> {
    if (context.inBatch)
      throw new RpcError(ErrorCode.InvalidRequest, 'initialize must not be part of a batch');
    if (this.state !== 'awaiting-initialize') {
      throw new RpcError(
        ErrorCode.InvalidRequest,
        'initialize was already received on this session',
      );
    }
    const params = parseInitializeParams(request.params);
    const supported = this.host.protocolVersions;
    const requested = params.protocolVersion as ProtocolVersion;
    const version = supported.includes(requested)
      ? requested
      : (supported[supported.length - 1] as ProtocolVersion);
    this.sessionInfo = {
      id: this.id,
      protocolVersion: version,
      clientInfo: params.clientInfo,
      clientCapabilities: params.capabilities,
    };
    this.state = 'ready';
    this.knownChanges = this.host.changeCount();
    const result = this.host.initializeResult(version, {
      tasks: this.tasksFor(this.connectionIdentity),
    }) as unknown as JsonObject;
    if (!this.persist) return result;
    // Answered only once stored: the client's next request may reach another instance.
    return this.saveState().then(
      () => result,
      (error: unknown) => {
        this.sessionInfo = undefined;
        this.state = 'awaiting-initialize';
        throw error;
      },
    );
  }

  private handleNotification(notification: JsonRpcNotification): void {
    if (notification.method === 'notifications/initialized') this.initializedNotified = true;
    // Other client notifications (roots/list_changed...) need no action from a tools server.
  }
}

/** Builds the initialize result for one revision. */
export function initializeResultFor(
  version: ProtocolVersion,
  server: {
    serverInfo: Implementation;
    capabilities: ServerCapabilities;
    instructions: string | undefined;
  },
): InitializeResult {
  const { serverInfo, capabilities, instructions } = server;
  const f = featuresOf(version);
  const result: InitializeResult = {
    protocolVersion: version,
    capabilities: serverCapabilitiesForRevision(capabilities, f),
    serverInfo: implementationForRevision(serverInfo, f),
  };
  if (instructions !== undefined) result.instructions = instructions;
  return result;
}

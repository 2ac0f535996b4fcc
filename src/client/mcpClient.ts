/**
 * @module The MCP tools client: connects over any transport (in the era it is configured for:
 * the `initialize` handshake, offering the newest revision and accepting older ones, or the
 * stateless 2026-07-28 revision), lists tools across pages with a cache kept fresh by
 * `list_changed`, and calls tools with timeouts, progress, cancellation, output validation and the
 * host's approval. This file is the facade: the era sessions are in `eras/`, listing and calling
 * in `tools/`, tasks in `tasks/`, the answers to the server's requests in `input/`.
 */
import { Connection } from '../jsonrpc/connection.js';
import { LocalError } from '../jsonrpc/errors.js';
import { claimTransport } from '../jsonrpc/transportClaims.js';
import type { Transport } from '../jsonrpc/transport.js';
import {
  CancelTask,
  GetTask,
  GetTaskResult,
  ListTasks,
  Ping,
  RootsListChanged,
  type MethodDescriptor,
} from '../protocol/methods.js';
import {
  LOGGING_LEVELS,
  type CallToolResult,
  type Implementation,
  type ListToolsResult,
  type LoggingLevel,
  type ServerCapabilities,
  type Tool,
} from '../protocol/types.js';
import { parseCallToolResult } from '../protocol/params.js';
import type { Revision } from '../protocol/versions.js';
import type { Task } from '../tasks/eras/rev2025/taskWire.js';
import { ApprovalGate } from './approval/gate.js';
import type {
  CallToolOptions,
  ClientOptions,
  ConnectClientOptions,
  ServerDescription,
  StartedTask,
  StartTaskOptions,
} from './clientOptions.js';
import type { JsonObject } from '../jsonrpc/types.js';
import { ResponseCache } from './cache/responseCache.js';
import type { EraSession } from './eras/eraSession.js';
import { ProbeEndedConnection } from './eras/auto.js';
import { openSession } from './eras/negotiate.js';
import {
  answerServerRequest,
  capabilitiesFor,
  elicitationModesOf,
  type ServerRequestHost,
} from './input/serverRequests.js';
import { sessionHooks, type ServerRequestHandler, type SessionHooks } from './instrumentation.js';
import { receiveNotification } from './notifications.js';
import {
  cancelExtensionTask,
  followTask,
  getExtensionTask,
  updateExtensionTask,
  watchExtensionTask,
  type ExtensionLink,
} from './eras/extensionTasks.js';
import { cancelTask, getTask, listTasks, taskResult } from './tasks/taskRequests.js';
import { observeTask } from './tasks/taskObserver.js';
import type { TaskState } from './tasks/taskState.js';
import { TaskWatchers } from './tasks/taskWatchers.js';
import { ToolCaller } from './tools/toolCall.js';
import { ToolCatalog } from './tools/toolCatalog.js';
import { listAllTools, walkPages, type WalkOptions } from './tools/toolLister.js';

export type {
  CallToolOptions,
  ClientOptions,
  ConnectClientOptions,
  ProtocolEra,
  ServerDescription,
  StartedTask,
  StartTaskOptions,
} from './clientOptions.js';
export type { TaskState } from './tasks/taskState.js';

/** The signal of a wait that gives up at `signal` or after `timeoutMs`. */
function waitSignal(options: {
  signal?: AbortSignal;
  timeoutMs?: number;
}): AbortSignal | undefined {
  const { signal, timeoutMs } = options;
  if (timeoutMs === undefined) return signal;
  const timer = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, timer]) : timer;
}

/** A connection and the era session it carries: what every request goes through. */
interface Link {
  readonly connection: Connection;
  readonly session: EraSession;
}

/** An MCP client. */
export class McpClient {
  private connection: Connection | undefined;
  /** The session of the last successful `connect()` (what the server said stays readable). */
  private session: EraSession | undefined;
  private readonly taskWatchers = new TaskWatchers();
  private readonly catalog: ToolCatalog;
  private readonly caller: ToolCaller;
  private readonly gate: ApprovalGate;
  private readonly serverRequests: ServerRequestHost;
  /** What the instrumentation puts around the session, when there is an instrumentation. */
  private hooks: SessionHooks | undefined;
  /** Results with 2026-07-28 cache hints (the client's own, or one it shares; none if disabled). */
  private readonly responseCache: ResponseCache | undefined;

  constructor(
    readonly clientInfo: Implementation,
    private readonly options: ClientOptions = {},
  ) {
    this.responseCache =
      options.responseCache === false ? undefined : (options.responseCache ?? new ResponseCache());
    this.gate = new ApprovalGate(
      options.approval,
      options.audit,
      () => this.serverInfo ?? { name: 'unknown', version: '' },
    );
    this.serverRequests = {
      handlers: options.handlers ?? {},
      elicitationModes: elicitationModesOf(options),
      report: (error) => this.report(error),
    };
    this.catalog = new ToolCatalog({
      relist: () => this.listTools(),
      onToolsChanged: (tools) => this.options.onToolsChanged?.(tools),
      report: (error) => this.report(error),
    });
    this.caller = new ToolCaller({
      options,
      gate: this.gate,
      definitionOf: (name) => this.catalog.definitionOf(name),
      hooks: () => this.hooks,
      watch: (taskId, listener) => this.taskWatchers.watch(taskId, listener),
    });
  }

  /**
   * Connects and opens the session (the initialize handshake, or `server/discover` on the
   * stateless revision). A transport carries one connection: one that another server or client
   * (or this one) connected before is refused with a `transport` error.
   */
  async connect(
    transport: Transport,
    options: ConnectClientOptions = {},
  ): Promise<ServerDescription> {
    if (this.connection) throw new LocalError('transport', 'This client is already connected');
    claimTransport(transport, 'McpClient.connect');
    const answer: ServerRequestHandler = (request, context) =>
      answerServerRequest(this.serverRequests, request, context);
    const instrument = this.options.instrument;
    const revision = (): string | undefined => this.session?.server.protocolVersion;
    const hooks = instrument && sessionHooks(instrument, { transport, revision }, answer);
    this.hooks = hooks;
    const connection = new Connection(
      transport,
      {
        request: hooks?.request ?? answer,
        notification: (notification) => receiveNotification(this.notificationHost, notification),
      },
      {
        requestTimeoutMs: this.options.requestTimeoutMs ?? 60_000,
        maxTotalTimeoutMs: this.options.maxTotalTimeoutMs ?? 600_000,
        batchesAllowed: () => this.session?.features.batches === true,
        omitUnreadableErrorId: () => this.session?.features.omitUnreadableErrorId === true,
        onerror: (error) => this.report(error),
        ...hooks?.options,
      },
    );
    this.connection = connection;
    let failure: unknown;
    connection.onClose(() => {
      this.catalog.clear();
      // Ended here (close(), a failed handshake), or by the server: connect() forgot it.
      hooks?.ended(failure, this.connection === connection);
      this.options.onclose?.();
    });
    try {
      await connection.start();
      const session = await openSession(this.options.protocolEra, {
        connection,
        transport,
        clientInfo: this.clientInfo,
        capabilities: {
          ...this.options.capabilities,
          ...capabilitiesFor(this.options.handlers ?? {}, this.options),
        },
        accepted: this.options.protocolVersions,
        options,
        input: this.serverRequests,
        report: (error) => this.report(error),
        cache: this.responseCache,
        // A client that takes log messages gets them all until it says otherwise, on both eras.
        logLevel: this.options.onLog ? 'debug' : undefined,
        listen: this.options.listen ?? this.options.onToolsChanged !== undefined,
        tasksExtension: this.options.tasksExtension ?? true,
        missedChanges: () => this.notificationHost.toolsChanged(),
        watchTask: (taskId, listener) => this.taskWatchers.watch(taskId, listener),
        agreed: (agreed) => (this.session = agreed),
      });
      return session.server;
    } catch (error) {
      failure = error;
      this.connection = undefined;
      await connection.close().catch(() => {});
      // A server the probe ended: once more, through a new transport to it, with initialize.
      const fresh = error instanceof ProbeEndedConnection ? transport.respawn?.() : undefined;
      if (fresh) return this.connect(fresh, options);
      throw error;
    }
  }

  /** The negotiated revision. */
  get protocolVersion(): Revision | undefined {
    return this.session?.server.protocolVersion;
  }

  /** What the server said about itself. */
  get serverInfo(): Implementation | undefined {
    return this.session?.server.serverInfo;
  }

  /** The server's capabilities. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.session?.server.capabilities;
  }

  /** The server's instructions, if any. */
  get instructions(): string | undefined {
    return this.session?.server.instructions;
  }

  /**
   * True while a 2026-07-28 `subscriptions/listen` stream for tool changes is open and
   * acknowledged (see the `listen` option); 2025 sessions get `list_changed` without one.
   */
  get listening(): boolean {
    return this.session?.listening === true && this.connection !== undefined;
  }

  /** The tools from the last complete listing (kept fresh on `list_changed`), if any. */
  get cachedTools(): Tool[] | undefined {
    return this.catalog.cached;
  }

  /** Lists every tool, walking all pages, and refreshes the cache. */
  async listTools(options: WalkOptions = {}): Promise<Tool[]> {
    const { connection, session } = this.ready('tools');
    const listed = await listAllTools(
      (cursor, signal) => session.listPage(connection, cursor, signal),
      (problem) => this.report(new LocalError('invalid-response', problem)),
      { maxPages: this.options.maxListPages ?? 1000, ...options },
    );
    const tools = session.keepTools(listed);
    this.catalog.store(tools, session.trustsCompleteListing);
    await this.gate.observe(tools);
    return tools;
  }

  /** Iterates `tools/list` page by page (no caching). */
  pages(options: WalkOptions = {}): AsyncGenerator<ListToolsResult> {
    const { connection, session } = this.ready('tools');
    return walkPages(
      (cursor, signal) => session.listPage(connection, cursor, signal),
      (problem) => this.report(new LocalError('invalid-response', problem)),
      { maxPages: this.options.maxListPages ?? 1000, ...options },
    );
  }

  /** Calls a tool. Rejects with RpcError (protocol errors) or LocalError (timeout, denied, invalid output...). */
  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    options: CallToolOptions = {},
  ): Promise<CallToolResult> {
    return this.caller.call(this.ready('tools'), { name, args }, options);
  }

  /**
   * Starts a tool as a task and returns at once with the task the server created (the
   * 2025-11-25 task-augmented call, or on 2026-07-28 a call declaring the tasks extension), or
   * with the tool's result when the server ran the call at once. The host's approval and the
   * audit apply as to `callTool`; follow the task with `watchTask`, `taskResult` or `getTask`.
   */
  async startTask(
    name: string,
    args: Record<string, unknown> = {},
    options: StartTaskOptions = {},
  ): Promise<StartedTask> {
    return this.caller.start(this.ready('tools'), { name, args }, options);
  }

  /** The state of a task (`tasks/get`; on 2026-07-28 the extension's, with its details). */
  async getTask(taskId: string, options: { signal?: AbortSignal } = {}): Promise<TaskState> {
    const link = this.extension();
    if (link) return getExtensionTask(link, taskId, options.signal);
    return getTask(this.ready('tasks', GetTask).connection, taskId, options);
  }

  /** One page of this caller's tasks (`tasks/list`, 2025-11-25; the extension has none). */
  async listTasks(
    options: { cursor?: string; signal?: AbortSignal } = {},
  ): Promise<{ tasks: Task[]; nextCursor?: string }> {
    return listTasks(this.ready('tasks', ListTasks).connection, options);
  }

  /**
   * The result of a task, waiting until it ends: `tasks/result` (2025-11-25), or on 2026-07-28
   * the extension's task followed to its end (its requests for input answered through the
   * handlers). Giving up the wait (`signal`, `timeoutMs`) leaves the task running.
   */
  async taskResult(
    taskId: string,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<CallToolResult> {
    const link = this.extension();
    if (!link) {
      const { connection, session } = this.ready('tasks', GetTaskResult);
      return taskResult({ connection, features: session.features }, taskId, options);
    }
    const { session } = this.ready();
    const signal = waitSignal(options);
    const first = await getExtensionTask(link, taskId, signal);
    const raw = await followTask(first, link, { signal, cancelOnAbort: false });
    return parseCallToolResult(raw, session.features);
  }

  /**
   * Answers a task's requests for input by key (`tasks/update`, the tasks extension: a
   * 2025-11-25 task asks through `tasks/result`, answered by the handlers).
   */
  async updateTask(
    taskId: string,
    inputResponses: Record<string, unknown>,
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    const link = this.extension();
    if (!link)
      throw new LocalError(
        'unsupported-version',
        "tasks/update is the tasks extension's (2026-07-28); a 2025-11-25 task asks for input through tasks/result",
      );
    await updateExtensionTask(link, { taskId, inputResponses: inputResponses }, options.signal);
  }

  /**
   * Watches a task until it ends and resolves with its terminal state, reporting each status
   * once and in order to `ontaskstatus`: polled at the server's pace and heard at once from
   * status notifications (on 2026-07-28 through a `subscriptions/listen` for the task). It does
   * not answer requests for input: `updateTask` does (2026-07-28). Giving up leaves the task.
   */
  async watchTask(
    taskId: string,
    options: { signal?: AbortSignal; ontaskstatus?: (task: TaskState) => void } = {},
  ): Promise<TaskState> {
    const { signal, ontaskstatus } = options;
    const link = this.extension();
    if (link)
      return watchExtensionTask(await getExtensionTask(link, taskId, signal), link, {
        signal,
        ontaskstatus,
      });
    const { connection } = this.ready('tasks', GetTask);
    const get = (s: AbortSignal | undefined) => getTask(connection, taskId, s ? { signal: s } : {});
    return observeTask(await get(signal), {
      get,
      watch: (listener) => this.taskWatchers.watch(taskId, listener),
      signal,
      report: ontaskstatus,
    });
  }

  /**
   * Cancels a task (`tasks/cancel`) and returns its state: on 2025-11-25 -32602 when it already
   * ended; the extension acknowledges that too, and the state tells how it ended.
   */
  async cancelTask(taskId: string, options: { signal?: AbortSignal } = {}): Promise<TaskState> {
    const link = this.extension();
    if (link) return cancelExtensionTask(link, taskId, options.signal);
    return cancelTask(this.ready('tasks', CancelTask).connection, taskId);
  }

  /** Pings the server. */
  async ping(options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<void> {
    await this.ready(undefined, Ping).connection.request(Ping.method, undefined, options);
  }

  /** Sets the minimum level of log messages the server sends. */
  async setLoggingLevel(level: LoggingLevel): Promise<void> {
    if (!LOGGING_LEVELS.includes(level)) throw new RangeError(`Unknown logging level ${level}`);
    const { connection, session } = this.ready('logging');
    await session.setLogLevel(connection, level);
  }

  /** Tells the server the roots changed. */
  async notifyRootsListChanged(): Promise<void> {
    await this.ready(undefined, RootsListChanged).connection.notify(RootsListChanged.method);
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    await connection?.close();
  }

  /**
   * The live connection and its session, for a request of `method` needing `capability`; throws
   * when the client is not connected, the session does not speak the method, the connection
   * closed, or the server lacks the capability.
   */
  private ready(capability?: 'tools' | 'logging' | 'tasks', method?: MethodDescriptor): Link {
    const { connection, session } = this;
    if (!connection || !session)
      throw new LocalError('not-connected', 'The client is not connected');
    const refusal = method && session.unspoken(method.method);
    if (refusal) throw refusal;
    if (connection.closed)
      throw connection.closeReason ?? new LocalError('closed', 'The connection is closed');
    if (capability && !session.server.capabilities[capability]) {
      throw new LocalError(
        'capability-missing',
        `The server does not declare the "${capability}" capability`,
      );
    }
    return { connection, session };
  }

  /**
   * The tasks extension's requests on a 2026-07-28 session; undefined on a 2025 one (the
   * 2025-11-25 task methods then); `capability-missing` when the server does not offer it.
   */
  private extension(): ExtensionLink | undefined {
    const { connection, session } = this.ready();
    if (!session.extensionLink) return undefined;
    const link = session.extensionLink(connection);
    if (!link)
      throw new LocalError(
        'capability-missing',
        'The server does not offer the tasks extension (io.modelcontextprotocol/tasks), or the client does not speak it (option tasksExtension)',
      );
    return link;
  }

  /** What the client does with the server's notifications. */
  private readonly notificationHost = {
    toolsChanged: () => {
      this.session?.toolsChanged();
      this.catalog.changed();
    },
    acknowledged: (params: JsonObject | undefined) => this.session?.acknowledged(params),
    log: (message: Parameters<NonNullable<ClientOptions['onLog']>>[0]) =>
      this.options.onLog?.(message),
    taskStatus: (task: TaskState) => {
      this.taskWatchers.tell(task);
      this.options.onTaskStatus?.(task);
    },
  };

  private report(error: Error): void {
    this.options.onerror?.(error);
  }
}

/**
 * @module The MCP tools client: connects over any transport (offering the newest revision and
 * accepting older ones), lists tools across pages with a cache kept fresh by `list_changed`, and
 * calls tools with timeouts, progress, cancellation, output validation and the host's approval.
 */
import { Connection } from '../jsonrpc/connection.js';
import { LocalError } from '../jsonrpc/errors.js';
import { claimTransport } from '../jsonrpc/transportClaims.js';
import type { Progress } from '../jsonrpc/pendingRequests.js';
import type { Transport } from '../jsonrpc/transport.js';
import type { JsonObject, JsonRpcNotification } from '../jsonrpc/types.js';
import { parseCallToolResult, parseInitializeResult } from '../protocol/params.js';
import {
  LOGGING_LEVELS,
  type CallToolResult,
  type ClientCapabilities,
  type Implementation,
  type ListToolsResult,
  type LoggingLevel,
  type LoggingMessageParams,
  type ServerCapabilities,
  type Tool,
} from '../protocol/types.js';
import {
  featuresOf,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type ModernProtocolVersion,
  type ProtocolVersion,
  type Revision,
  type RevisionFeatures,
} from '../protocol/versions.js';
import {
  checkResultType,
  paramHeadersOf,
  paramHeaderValues,
  parseDiscoverResult,
  statelessRequestMeta,
  type ParamHeader,
} from '../protocol/statelessRevision.js';
import { answerInputRequests } from './inputRequests.js';
import type { JsonSchemaDialect } from '../protocol/jsonSchema.js';
import { ApprovalGate } from './approval/gate.js';
import type { ApprovalPolicy, AuditSink } from './approval/policy.js';
import { OutputValidator } from './outputValidator.js';
import { callToolAsTask, parseTask } from './taskCalls.js';
import type { Task } from '../tasks/taskTypes.js';
import {
  answerServerRequest,
  capabilitiesFor,
  elicitationModesOf,
  type ClientHandlers,
  type HandlerCapabilityOptions,
  type ServerRequestHost,
} from './serverRequests.js';
import { listAllTools, walkPages, type WalkOptions } from './toolLister.js';
import {
  sessionHooks,
  type ClientInstrumentation,
  type ServerRequestHandler,
  type SessionHooks,
  type ToolCallScope,
} from './instrumentation.js';
import type { CompiledJsonSchema } from '../protocol/jsonSchema.js';

/**
 * How the client talks to servers: `legacy` (the default), the `initialize` handshake of
 * 2024-11-05 to 2025-11-25; `modern`, the stateless 2026-07-28 revision (`server/discover`, the
 * revision and capabilities in every request's `_meta`).
 */
export type ProtocolEra = 'legacy' | 'modern';

/** What the client knows of the server once connected (from `initialize` or `server/discover`). */
export interface ServerDescription {
  protocolVersion: Revision;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
}

/** Rounds of input (2026-07-28 `input_required` results) one call may take. */
const MAX_INPUT_ROUNDS = 8;

/** Client options; every limit has a default (docs/limits.md). */
export interface ClientOptions extends HandlerCapabilityOptions {
  /** `legacy` (default) or `modern` (2026-07-28, stateless; tools only). */
  protocolEra?: ProtocolEra;
  /** Answers to server requests; each one declares its capability. */
  handlers?: ClientHandlers;
  /** Extra capabilities (e.g. `experimental`). */
  capabilities?: ClientCapabilities;
  /** Revisions this client accepts; it offers the newest. Default: all four. */
  protocolVersions?: readonly ProtocolVersion[];
  /** Default request timeout. Default 60 000 ms. */
  requestTimeoutMs?: number;
  /** Default hard cap on a request's total time, progress included. Default 600 000 ms. */
  maxTotalTimeoutMs?: number;
  /** Validate structured results against output schemas. Default true. */
  validateStructuredContent?: boolean;
  /** Most `tools/list` pages one listing may take. Default 1000. */
  maxListPages?: number;
  /** The human in the loop. */
  approval?: ApprovalPolicy;
  /** The audit trail of exposed tools, calls, decisions and outcomes. */
  audit?: AuditSink;
  /** Called with the fresh tool list after a `list_changed` refresh. */
  onToolsChanged?: (tools: Tool[]) => void;
  /** Log messages from the server. */
  onLog?: (message: LoggingMessageParams) => void;
  /**
   * Every `notifications/tasks/status` the server sends (tasks started by `callTool` also report
   * theirs to the call's `ontaskstatus`).
   */
  onTaskStatus?: (task: Task) => void;
  /** Faults that did not fail a call (bad notifications, skipped tools, refresh errors). */
  onerror?: (error: Error) => void;
  /**
   * Called once when the connection of `connect()` ends: the server went away (a stdio server
   * that exited, a Streamable HTTP session that was deleted) or `close()` was called.
   */
  onclose?: () => void;
  /**
   * Wraps every request the client sends, for traces and metrics (`clientTelemetry()` of
   * `toolwire/otel` builds one). Unset: requests go straight out.
   */
  instrument?: ClientInstrumentation;
}

/** Options of one tool call. */
export interface CallToolOptions {
  signal?: AbortSignal;
  /** Default: the client's `requestTimeoutMs`. */
  timeoutMs?: number;
  /** Default: the client's `maxTotalTimeoutMs`. */
  maxTotalTimeoutMs?: number;
  /** Restart the timeout whenever progress arrives (never past the total cap). */
  resetTimeoutOnProgress?: boolean;
  /** Ask for progress and receive it here. */
  onprogress?: (progress: Progress) => void;
  /** Check `structuredContent` against the output schema. Default: the client's setting. */
  validateOutput?: boolean;
  /** `_meta` to send with the request. */
  meta?: Record<string, unknown>;
  /**
   * Run the call as a task (2025-11-25) when the tool allows it (`taskSupport: "optional"`);
   * tools that require it always run as tasks. An object sets the requested TTL.
   */
  task?: boolean | { ttl?: number };
  /** Status of the task the call runs as (creation, polling, status notifications). */
  ontaskstatus?: (task: Task) => void;
  /** The server's text for the model while the task runs (model-immediate-response). */
  onimmediateresponse?: (text: string) => void;
}

/** Options of {@link McpClient.connect}. */
export interface ConnectClientOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** An MCP client. */
export class McpClient {
  private connection: Connection | undefined;
  /** Listeners of status notifications, per task id (tasks run by callTool). */
  private readonly taskWatchers = new Map<string, Set<(task: Task) => void>>();
  private init: ServerDescription | undefined;
  /** On the stateless revision: the `_meta` every request carries. */
  private statelessMeta: JsonObject | undefined;
  /** On the stateless revision: each listed tool's `x-mcp-header` annotations. */
  private readonly paramHeaders = new Map<string, readonly ParamHeader[]>();
  private cache: Map<string, Tool> | undefined;
  private cacheTrusted = false;
  private refreshing: Promise<void> | undefined;
  private refreshAgain = false;
  private readonly validator = new OutputValidator();
  private readonly gate: ApprovalGate;
  private readonly serverRequests: ServerRequestHost;
  /** What the instrumentation puts around the session, when there is an instrumentation. */
  private hooks: SessionHooks | undefined;

  constructor(
    readonly clientInfo: Implementation,
    private readonly options: ClientOptions = {},
  ) {
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
  }

  /**
   * Connects and performs the initialize handshake. A transport carries one connection: one that
   * another server or client (or this one) connected before is refused with a `transport` error.
   */
  async connect(
    transport: Transport,
    options: ConnectClientOptions = {},
  ): Promise<ServerDescription> {
    if (this.connection) throw new LocalError('transport', 'This client is already connected');
    claimTransport(transport, 'McpClient.connect');
    const accepted = this.options.protocolVersions ?? SUPPORTED_PROTOCOL_VERSIONS;
    const offered =
      SUPPORTED_PROTOCOL_VERSIONS.filter((v) => accepted.includes(v)).at(-1) ??
      LATEST_PROTOCOL_VERSION;
    const answer: ServerRequestHandler = (request, context) =>
      answerServerRequest(this.serverRequests, request, context);
    const instrument = this.options.instrument;
    const revision = (): string | undefined => this.init?.protocolVersion;
    const hooks = instrument && sessionHooks(instrument, { transport, revision }, answer);
    this.hooks = hooks;
    const connection = new Connection(
      transport,
      {
        request: hooks?.request ?? answer,
        notification: (notification) => this.onNotification(notification),
      },
      {
        requestTimeoutMs: this.options.requestTimeoutMs ?? 60_000,
        maxTotalTimeoutMs: this.options.maxTotalTimeoutMs ?? 600_000,
        batchesAllowed: () =>
          this.init !== undefined && featuresOf(this.init.protocolVersion).batches,
        omitUnreadableErrorId: () =>
          this.init !== undefined && featuresOf(this.init.protocolVersion).omitUnreadableErrorId,
        onerror: (error) => this.report(error),
        ...hooks?.options,
      },
    );
    this.connection = connection;
    let failure: unknown;
    connection.onClose(() => {
      this.cache = undefined;
      // Ended here (close(), a failed handshake), or by the server: connect() forgot it.
      hooks?.ended(failure, this.connection === connection);
      this.options.onclose?.();
    });
    try {
      await connection.start();
      const capabilities = {
        ...this.options.capabilities,
        ...capabilitiesFor(this.options.handlers ?? {}, this.options),
      };
      if (this.options.protocolEra === 'modern')
        return await this.discover({ connection, transport, capabilities }, options);
      const raw = await connection.request(
        'initialize',
        {
          protocolVersion: offered,
          capabilities,
          clientInfo: this.clientInfo,
        },
        {
          cancellable: false,
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
        },
      );
      const init = parseInitializeResult(raw);
      if (!accepted.includes(init.protocolVersion)) {
        throw new LocalError(
          'unsupported-version',
          `The server chose protocol version ${init.protocolVersion}, which this client does not accept`,
        );
      }
      this.init = init;
      transport.setProtocolVersion?.(init.protocolVersion);
      await connection.notify('notifications/initialized');
      return init;
    } catch (error) {
      failure = error;
      this.connection = undefined;
      this.statelessMeta = undefined;
      await connection.close().catch(() => {});
      throw error;
    }
  }

  /**
   * The stateless revision's start: `server/discover`, with the revision told to the transport
   * first (HTTP sends it, and each message's method and name, as headers).
   */
  private async discover(
    session: { connection: Connection; transport: Transport; capabilities: ClientCapabilities },
    options: ConnectClientOptions,
  ): Promise<ServerDescription> {
    const version: ModernProtocolVersion = '2026-07-28';
    // 2026-07-28 has no roots/list_changed: the roots capability has no members.
    const capabilities = session.capabilities.roots
      ? { ...session.capabilities, roots: {} }
      : session.capabilities;
    session.transport.setProtocolVersion?.(version, { stateless: true });
    const meta = statelessRequestMeta(version, { capabilities, info: this.clientInfo });
    this.statelessMeta = meta;
    const found = parseDiscoverResult(
      await session.connection.request(
        'server/discover',
        { _meta: meta },
        {
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
        },
      ),
    );
    if (!found.supportedVersions.includes(version))
      throw new LocalError(
        'unsupported-version',
        `The server supports ${found.supportedVersions.join(', ') || 'no revision'}, not ${version}`,
      );
    this.init = {
      protocolVersion: version,
      capabilities: found.capabilities,
      serverInfo: found.serverInfo ?? { name: 'unknown', version: '' },
      ...(found.instructions !== undefined ? { instructions: found.instructions } : {}),
    };
    return this.init;
  }

  /** Params as sent: on the stateless revision, with the session's `_meta` merged in. */
  private withMeta(params: JsonObject): JsonObject {
    const meta = this.statelessMeta;
    if (!meta) return params;
    const own = params['_meta'];
    return { ...params, _meta: own && typeof own === 'object' ? { ...own, ...meta } : meta };
  }

  /** The negotiated revision. */
  get protocolVersion(): Revision | undefined {
    return this.init?.protocolVersion;
  }

  /** What the server said about itself. */
  get serverInfo(): Implementation | undefined {
    return this.init?.serverInfo;
  }

  /** The server's capabilities. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.init?.capabilities;
  }

  /** The server's instructions, if any. */
  get instructions(): string | undefined {
    return this.init?.instructions;
  }

  /** The tools from the last complete listing (kept fresh on `list_changed`), if any. */
  get cachedTools(): Tool[] | undefined {
    return this.cache ? [...this.cache.values()] : undefined;
  }

  /** Lists every tool, walking all pages, and refreshes the cache. */
  async listTools(options: WalkOptions = {}): Promise<Tool[]> {
    const connection = this.ready('tools');
    const listed = await listAllTools(
      (cursor, signal) => this.listPage(connection, cursor, signal),
      (problem) => this.report(new LocalError('invalid-response', problem)),
      { maxPages: this.options.maxListPages ?? 1000, ...options },
    );
    const tools = this.statelessMeta ? this.withParamHeaders(listed) : listed;
    this.cache = new Map(tools.map((t) => [t.name, t]));
    // 2026-07-28 announces changes only on a subscriptions/listen stream, which is not opened.
    this.cacheTrusted = !this.statelessMeta && this.init?.capabilities.tools?.listChanged === true;
    await this.gate.observe(tools);
    return tools;
  }

  /** Iterates `tools/list` page by page (no caching). */
  pages(options: WalkOptions = {}): AsyncGenerator<ListToolsResult> {
    const connection = this.ready('tools');
    return walkPages(
      (cursor, signal) => this.listPage(connection, cursor, signal),
      (problem) => this.report(new LocalError('invalid-response', problem)),
      { maxPages: this.options.maxListPages ?? 1000, ...options },
    );
  }

  /** One `tools/list` request. */
  private async listPage(
    connection: Connection,
    cursor: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<JsonObject> {
    const raw = await connection.request(
      'tools/list',
      this.withMeta(cursor === undefined ? {} : { cursor }),
      signal ? { signal } : {},
    );
    if (this.statelessMeta && checkResultType(raw, 'tools/list') !== 'complete')
      throw new LocalError('invalid-response', 'The tools/list result asks for input');
    return raw;
  }

  /**
   * Keeps each tool's `x-mcp-header` annotations for its calls, and drops (reported) a tool whose
   * annotations are invalid, as 2026-07-28 requires of clients.
   */
  private withParamHeaders(tools: Tool[]): Tool[] {
    this.paramHeaders.clear();
    return tools.filter((tool) => {
      const found = paramHeadersOf(tool);
      if ('problem' in found) {
        this.report(
          new LocalError('invalid-tool', `Tool "${tool.name}" is left out: ${found.problem}`),
        );
        return false;
      }
      if (found.headers.length > 0) this.paramHeaders.set(tool.name, found.headers);
      return true;
    });
  }

  /** Calls a tool. Rejects with RpcError (protocol errors) or LocalError (timeout, denied, invalid output...). */
  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    options: CallToolOptions = {},
  ): Promise<CallToolResult> {
    const connection = this.ready('tools');
    const validate = options.validateOutput ?? this.options.validateStructuredContent ?? true;
    const stateless = this.statelessMeta !== undefined;
    if (stateless && options.task !== undefined && options.task !== false)
      throw new LocalError('invalid-tool', 'Tasks are not part of the 2026-07-28 revision');
    const tasksOffered =
      !stateless && this.init?.capabilities.tasks?.requests?.tools?.call !== undefined;
    const needsDefinition =
      validate || this.options.approval || this.options.audit || tasksOffered || stateless;
    const tool = needsDefinition ? await this.definitionOf(name) : undefined;
    const asTask = tasksOffered && this.shouldRunAsTask(tool, name, options.task);
    // Before anything runs: a result that could not be validated must not cost a side effect.
    const validator =
      validate && tool ? this.validator.prepare(tool, this.schemaDialect()) : undefined;
    if (this.options.approval && !tool) {
      throw new LocalError(
        'invalid-tool',
        `Tool "${name}" is not offered by the server, so it cannot be approved`,
      );
    }
    const scope = tool && this.options.approval ? this.hooks?.toolCall(name, args) : undefined;
    const call = { name, args, tool, validator, asTask, scope };
    if (!scope) return this.decidedCall(connection, call, options);
    return this.decidedCall(connection, call, options).then(
      (result) => {
        scope.end();
        return result;
      },
      (error: unknown) => {
        scope.end(error);
        throw error;
      },
    );
  }

  /** Asks for approval, then sends the call, as a task or not, and checks its result. */
  private async decidedCall(
    connection: Connection,
    call: {
      name: string;
      args: Record<string, unknown>;
      tool: Tool | undefined;
      validator: CompiledJsonSchema | undefined;
      asTask: boolean;
      scope: ToolCallScope | undefined;
    },
    options: CallToolOptions,
  ): Promise<CallToolResult> {
    const { name, args, tool, validator, scope } = call;
    if (tool)
      await this.gate.authorize(tool, args, scope ? { ...options, observer: scope } : options);
    const startedAt = Date.now();
    try {
      const params: JsonObject = { name, arguments: args };
      if (options.meta) params['_meta'] = options.meta;
      const raw = call.asTask
        ? await callToolAsTask(
            connection,
            { name, args },
            {
              ...(options.signal ? { signal: options.signal } : {}),
              ...(scope ? { scope } : {}),
              ...(typeof options.task === 'object' && options.task.ttl !== undefined
                ? { ttl: options.task.ttl }
                : {}),
              timeoutMs: options.timeoutMs ?? this.options.requestTimeoutMs ?? 60_000,
              maxTotalTimeoutMs:
                options.maxTotalTimeoutMs ?? this.options.maxTotalTimeoutMs ?? 600_000,
              ...(options.onprogress ? { onprogress: options.onprogress } : {}),
              ...(options.ontaskstatus ? { ontaskstatus: options.ontaskstatus } : {}),
              ...(options.onimmediateresponse
                ? { onimmediateresponse: options.onimmediateresponse }
                : {}),
              ...(options.meta ? { meta: options.meta } : {}),
              watch: (taskId, listener) => this.watchTask(taskId, listener),
            },
          )
        : await this.requestCall(connection, params, scope ? { ...options, scope } : options);
      const result = parseCallToolResult(raw, this.features());
      if (validator && tool) this.validator.check(tool, validator, result);
      this.gate.finished(name, { isError: result.isError === true }, startedAt);
      return result;
    } catch (error) {
      this.gate.finished(name, { error }, startedAt);
      throw error;
    }
  }

  /**
   * One `tools/call` request; on the stateless revision with its `_meta` and `Mcp-Param-*`
   * headers, and sent again with the client's answers while the server asks for input.
   */
  private async requestCall(
    connection: Connection,
    params: JsonObject,
    options: CallToolOptions & { scope?: ToolCallScope },
  ): Promise<JsonObject> {
    const name = params['name'] as string;
    const headers = this.paramHeaders.get(name);
    const sendOptions = {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.maxTotalTimeoutMs !== undefined
        ? { maxTotalTimeoutMs: options.maxTotalTimeoutMs }
        : {}),
      ...(options.resetTimeoutOnProgress !== undefined
        ? { resetTimeoutOnProgress: options.resetTimeoutOnProgress }
        : {}),
      ...(options.onprogress ? { onprogress: options.onprogress } : {}),
      ...(headers
        ? { headers: paramHeaderValues(headers, params['arguments'] as Record<string, unknown>) }
        : {}),
    };
    // The call's scope goes with its first request only (rounds of input are requests of their own).
    let raw = await connection.request(
      'tools/call',
      this.withMeta(params),
      options.scope ? { ...sendOptions, scope: options.scope } : sendOptions,
    );
    if (!this.statelessMeta) return raw;
    for (let round = 1; checkResultType(raw, 'tools/call') === 'input_required'; round++) {
      if (round > MAX_INPUT_ROUNDS)
        throw new LocalError(
          'invalid-response',
          `The server asked for input more than ${MAX_INPUT_ROUNDS} times for one call to "${name}"`,
        );
      const inputResponses = await answerInputRequests(
        this.serverRequests,
        raw['inputRequests'],
        options.signal,
      );
      const state = raw['requestState'];
      const next: JsonObject = { ...params };
      if (inputResponses) next['inputResponses'] = inputResponses;
      if (typeof state === 'string') next['requestState'] = state;
      raw = await connection.request('tools/call', this.withMeta(next), sendOptions);
    }
    return raw;
  }

  /** The status of a task (`tasks/get`). */
  async getTask(taskId: string, options: { signal?: AbortSignal } = {}): Promise<Task> {
    return parseTask(
      await this.ready('tasks', 'tasks/get').request('tasks/get', { taskId }, options),
    );
  }

  /** One page of this caller's tasks (`tasks/list`). */
  async listTasks(
    options: { cursor?: string; signal?: AbortSignal } = {},
  ): Promise<{ tasks: Task[]; nextCursor?: string }> {
    const params = options.cursor === undefined ? {} : { cursor: options.cursor };
    const raw = await this.ready('tasks', 'tasks/list').request(
      'tasks/list',
      params,
      options.signal ? { signal: options.signal } : {},
    );
    if (!Array.isArray(raw['tasks']))
      throw new LocalError('invalid-response', 'tasks/list result has no "tasks" array');
    const page: { tasks: Task[]; nextCursor?: string } = { tasks: raw['tasks'].map(parseTask) };
    if (typeof raw['nextCursor'] === 'string') page.nextCursor = raw['nextCursor'];
    return page;
  }

  /** The result of a task, waiting until it ends (`tasks/result`). */
  async taskResult(
    taskId: string,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<CallToolResult> {
    return parseCallToolResult(
      await this.ready('tasks', 'tasks/result').request('tasks/result', { taskId }, options),
      this.features(),
    );
  }

  /** Cancels a task (`tasks/cancel`); -32602 when it already ended. */
  async cancelTask(taskId: string): Promise<Task> {
    return parseTask(await this.ready('tasks', 'tasks/cancel').request('tasks/cancel', { taskId }));
  }

  /** Pings the server. */
  async ping(options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<void> {
    await this.ready(undefined, 'ping').request('ping', undefined, options);
  }

  /** Sets the minimum level of log messages the server sends. */
  async setLoggingLevel(level: LoggingLevel): Promise<void> {
    if (!LOGGING_LEVELS.includes(level)) throw new RangeError(`Unknown logging level ${level}`);
    await this.ready('logging', 'logging/setLevel').request('logging/setLevel', { level });
  }

  /** Tells the server the roots changed. */
  async notifyRootsListChanged(): Promise<void> {
    await this.ready(undefined, 'notifications/roots/list_changed').notify(
      'notifications/roots/list_changed',
    );
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    this.statelessMeta = undefined;
    await connection?.close();
  }

  /** What the negotiated revision allows (only called once connected). */
  private features(): RevisionFeatures {
    return featuresOf(this.init?.protocolVersion ?? LATEST_PROTOCOL_VERSION);
  }

  /** How a schema without `$schema` is read: 2020-12 from 2025-11-25 (SEP-1613), draft-07 before. */
  private schemaDialect(): JsonSchemaDialect {
    return this.features().schemaDialects ? '2020-12' : 'draft-07';
  }

  /** Whether a call runs as a task: required by the tool, or asked for and allowed. */
  private shouldRunAsTask(
    tool: Tool | undefined,
    name: string,
    requested: CallToolOptions['task'],
  ): boolean {
    const support = tool?.execution?.taskSupport ?? 'forbidden';
    if (support === 'required') return true;
    if (requested === undefined || requested === false) return false;
    if (support === 'forbidden')
      throw new LocalError('invalid-tool', `Tool "${name}" cannot run as a task`);
    return true;
  }

  private ready(capability?: 'tools' | 'logging' | 'tasks', method?: string): Connection {
    if (!this.connection || !this.init)
      throw new LocalError('not-connected', 'The client is not connected');
    if (method !== undefined && this.statelessMeta)
      throw new LocalError(
        'unsupported-version',
        `${method} is not part of the 2026-07-28 revision this client speaks to the server`,
      );
    if (this.connection.closed)
      throw this.connection.closeReason ?? new LocalError('closed', 'The connection is closed');
    if (capability && !this.init.capabilities[capability]) {
      throw new LocalError(
        'capability-missing',
        `The server does not declare the "${capability}" capability`,
      );
    }
    return this.connection;
  }

  /**
   * The tool's definition, listing when it is not cached. A complete listing from a server that
   * announces changes is trusted until `list_changed` arrives, so a name it lacks is not re-listed
   * on every call.
   */
  private async definitionOf(name: string): Promise<Tool | undefined> {
    const cached = this.cache?.get(name);
    if (cached) return cached;
    if (!this.cache || !this.cacheTrusted) await this.listTools();
    return this.cache?.get(name);
  }

  private onNotification(notification: JsonRpcNotification): void {
    switch (notification.method) {
      case 'notifications/tools/list_changed':
        this.cacheTrusted = false;
        this.refreshTools();
        return;
      case 'notifications/message': {
        const p = notification.params;
        if (p && LOGGING_LEVELS.includes(p['level'] as LoggingLevel))
          this.options.onLog?.(p as unknown as LoggingMessageParams);
        return;
      }
      case 'notifications/tasks/status': {
        let task: Task;
        try {
          task = parseTask(notification.params);
        } catch {
          return; // malformed: polling still reports the task
        }
        for (const listener of [...(this.taskWatchers.get(task.taskId) ?? [])]) listener(task);
        this.options.onTaskStatus?.(task);
        return;
      }
      default:
        return;
    }
  }

  /** Listens to status notifications of one task; returns the stop. */
  private watchTask(taskId: string, listener: (task: Task) => void): () => void {
    let set = this.taskWatchers.get(taskId);
    if (!set) this.taskWatchers.set(taskId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.taskWatchers.delete(taskId);
    };
  }

  private refreshTools(): void {
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = this.listTools()
      .then((tools) => this.options.onToolsChanged?.(tools))
      .catch((error: unknown) =>
        this.report(error instanceof Error ? error : new Error(String(error))),
      )
      .finally(() => {
        this.refreshing = undefined;
        if (this.refreshAgain) {
          this.refreshAgain = false;
          this.refreshTools();
        }
      });
  }

  private report(error: Error): void {
    this.options.onerror?.(error);
  }
}

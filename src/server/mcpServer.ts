/**
 * @module The MCP tools server: a live tool registry served to any number of sessions, each on
 * its own transport and protocol revision.
 */
import { hasScopes } from '../jsonrpc/scopes.js';
import { claimTransport } from '../jsonrpc/transportClaims.js';
import type { Identity, Transport } from '../jsonrpc/transport.js';
import type { JsonObject } from '../jsonrpc/types.js';
import type { PersistSessionState } from './fronts/sessionState.js';
import { ToolPages } from './registry/toolPages.js';
import { DeadlineSweep } from './call/deadlineSweep.js';
import type { CallDependencies } from './call/callPlan.js';
import type { ServerRateLimitOption } from './policy/rateLimitOptions.js';
import { RateLimitPolicy } from './policy/rateLimitPolicy.js';
import type { RateLimitStore } from './policy/rateLimitStore.js';
import {
  compileOutputPolicy,
  type OutputPolicy,
  type SanitizeOptions,
} from './sanitize/outputPolicy.js';
import type { ServerInstrumentation } from './middleware/instrumentation.js';
import type { Middleware, MiddlewarePlacement } from './middleware/middleware.js';
import { MiddlewareChain } from './middleware/middlewareChain.js';
import type { TaskOptions } from './tasks/taskOptions.js';
import { TaskRuntime } from './tasks/taskRuntime.js';
import type { TaskStore } from '../tasks/taskStore.js';
import type { CacheHints, RevisionProfile } from '../protocol/eras/era.js';
import { initializeResultOf } from '../protocol/eras/rev2025/handshake.js';
import type { ServerServices } from './dispatch/serverServices.js';
import { Dispatcher } from './dispatch/dispatcher.js';
import { legacyHandlerTable } from './fronts/legacyHandlers.js';
import type { ModernFront } from './fronts/modernFront.js';
import { buildModernFront } from './fronts/modernServer.js';
import { ListChangedNotice } from './notify/listChanged.js';
import { ListenStreams, type ListenLimits } from './notify/listenStreams.js';
import {
  roundTripOptions,
  type InputRoundTripOptions,
  type RoundTripOptions,
} from './input/inputRound.js';
import { RequestStateCodec } from './input/requestState.js';
import type { SpentStateStore } from './input/spentStates.js';
import { ServerSession, type SessionHost } from './serverSession.js';
import type { SessionInfo, SessionPort } from './toolContext.js';
import {
  isByteLimit,
  isTimerDelay,
  MAX_TIMER_MS,
  projectedDefinition,
  type ToolConfig,
  type ToolEntry,
  type ToolHandler,
} from './registry/toolDefinition.js';
import { ToolRegistry, type RegisteredTool } from './registry/toolRegistry.js';
import type { OutputSchemaInput, SchemaInput } from './registry/toolSchema.js';
import type {
  Implementation,
  InitializeResult,
  ServerCapabilities,
  Tool,
} from '../protocol/types.js';
import {
  MODERN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
  type ProtocolVersion,
  type Revision,
} from '../protocol/versions.js';

/**
 * Decides whether a caller may see and call a tool. The same decision filters `tools/list` and
 * guards `tools/call` (a hidden tool is "unknown"). Must be synchronous and cheap: it runs for
 * every listed tool.
 */
export type ToolVisibility = (
  tool: Tool,
  caller: { session: SessionInfo; identity: Identity | undefined },
) => boolean;

/** Server options; every limit has a production default (docs/limits.md). */
export interface ServerOptions {
  /** Sent in the initialize result (and the `server/discover` result of 2026-07-28). */
  instructions?: string;
  /** Tools per `tools/list` page. Default 1000. */
  pageSize?: number;
  /** Deadline of one tool call unless the tool sets its own. Default 300 000 ms. */
  toolTimeoutMs?: number;
  /**
   * Rate limits: a rule `{ limit, windowMs }` per principal and tool, or the full set
   * `{ global, perPrincipal, perTool, concurrentPerPrincipal, store }` (docs/server.md).
   * Default: none.
   */
  rateLimit?: ServerRateLimitOption;
  /** Access control for listing and calling. Default: every tool is visible. */
  visibility?: ToolVisibility;
  /** Serialise `structuredContent` into a text block when a handler returns no content. Default true. */
  structuredText?: boolean;
  /**
   * Largest tool result sent, in bytes of JSON (tools may set their own). A larger result becomes
   * an `isError` result saying so: kept well under the 4 MiB a client accepts by default. Default
   * 2 MiB.
   */
  maxResultBytes?: number;
  /**
   * Output sanitising of tool results: terminal controls, bidi and tag characters removed, resource
   * URIs held to an allow-list of schemes, secrets redacted when asked (docs/server.md: Output
   * sanitising). Default: on, with the documented defaults; `false` turns it off.
   */
  sanitize?: SanitizeOptions | false;
  /** Send the message of unexpected handler errors to the client. Default false (generic message). */
  exposeErrorMessages?: boolean;
  /** Changes within this window produce one `list_changed`. Default 10 ms. */
  listChangedDebounceMs?: number;
  /** `subscriptions/listen` streams open at once (2026): 10 000 in all, 100 per client. */
  listens?: ListenLimits;
  /** Requests per session whose handlers run at once; more wait. Default 64. */
  maxInFlight?: number;
  /**
   * Requests per session that may wait for a handler. When that many wait, stdio stops reading
   * and Streamable HTTP answers 429 with `Retry-After`; a transport that can do neither gets
   * further requests refused with -32000. Default 1024.
   */
  maxQueued?: number;
  /** Timeout of requests the server sends to the client. Default 60 000 ms. */
  requestTimeoutMs?: number;
  /**
   * Revisions this server accepts. Default: all five (2024-11-05 … 2025-11-25 by handshake, and
   * 2026-07-28, whose requests stand alone). Leave 2026-07-28 out to serve the 2025 era only, or
   * list only it to serve 2026 only (`initialize` is then answered -32022, naming it).
   */
  protocolVersions?: readonly Revision[];
  /**
   * How long clients of 2026-07-28 may cache `server/discover` and `tools/list` results
   * (server/utilities/caching). Default `{ ttlMs: 0, cacheScope: 'public' }`: stale at once, and
   * the same for every caller. `tools/list` is `private` whatever this says when the list depends
   * on the caller (a `visibility` hook, or tools that need scopes).
   */
  cacheHints?: Partial<CacheHints>;
  /**
   * How calls of 2026-07-28 ask for input (`ctx.elicit`, `ctx.sample`, `ctx.listRoots`): by an
   * `input_required` result the client answers in a retry, its state signed with `secret`
   * (docs/eras.md). Give every instance behind a load balancer the same secret.
   */
  inputRoundTrips?: InputRoundTripOptions;
  /** Extra capabilities to declare (e.g. `experimental`). */
  capabilities?: Omit<ServerCapabilities, 'tools'>;
  /** Declare the `logging` capability (handlers log through `context.log`). Default true. */
  logging?: boolean;
  /** Server-side diagnostics. Default: one line on stderr via `console.error`. */
  onerror?: (error: unknown, what: string) => void;
  /**
   * Task-augmented tool calls (2025-11-25): where tasks live and their limits. Default: on, in
   * memory. `false` turns tasks off (the `task` of a call is then ignored, as the spec says).
   */
  tasks?: TaskOptions | false;
}

/** Options of {@link McpServer.connect}. */
export interface ConnectOptions {
  /** The caller, when the code accepting the connection knows it. */
  identity?: Identity;
  /**
   * The client's network address, when known (HTTP transports also give it per message). Callers
   * without an identity are rate-limited by it; with neither, by the process.
   */
  clientAddress?: string;
  /** Use this session id (HTTP transports assign their own). */
  sessionId?: string;
  /**
   * Serve requests at once as if `initialize` had negotiated this revision, with no client
   * capabilities (stateless HTTP, where each request comes on a fresh session).
   */
  assumeVersion?: ProtocolVersion;
  /** The session lives for one request (stateless HTTP): without an identity, tasks are not offered. */
  transient?: boolean;
  /**
   * Start from a state another instance negotiated (see {@link ServerSession.snapshot}); throws
   * when it cannot be restored.
   */
  restore?: JsonObject;
  /** Called with the session's state whenever it changes; requests that change it wait for it. */
  persist?: PersistSessionState;
}

/** The server's output policy; a bad option is a RangeError naming it, like the other options. */
function compileServerPolicy(option: SanitizeOptions | false | undefined): OutputPolicy {
  try {
    return compileOutputPolicy(option);
  } catch (error) {
    throw new RangeError(`Server option ${(error as Error).message}`);
  }
}

/** The server's cache hints, checked (a RangeError naming what is wrong). */
function checkedCacheHints(option: Partial<CacheHints> | undefined): CacheHints {
  const ttlMs = option?.ttlMs ?? 0;
  const cacheScope = option?.cacheScope ?? 'public';
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 0)
    throw new RangeError('cacheHints.ttlMs must be a whole number of milliseconds, 0 or more');
  if (cacheScope !== 'public' && cacheScope !== 'private')
    throw new RangeError('cacheHints.cacheScope must be "public" or "private"');
  return { ttlMs, cacheScope };
}

function defaultReport(error: unknown, what: string): void {
  const detail = error instanceof Error ? error.message : String(error);
  console.error(`[toolwire] ${what}: ${detail}`);
}

/** An MCP server exposing tools. */
export class McpServer {
  private readonly registry = new ToolRegistry();
  private readonly middleware = new MiddlewareChain();
  private readonly instrumentations: ServerInstrumentation[] = [];
  private readonly live = new Set<ServerSession>();
  /** The open `subscriptions/listen` streams of 2026 clients. */
  private readonly listens: ListenStreams;
  /** How 2026 calls ask for input: the state codec and the spent states (shared by a host). */
  private readonly rounds: RoundTripOptions;
  private readonly host: SessionHost;
  private readonly capabilities: ServerCapabilities;
  private readonly pageSize: number;
  /** The task runtime, unless tasks are off. */
  readonly tasks: TaskRuntime | undefined;
  private readonly deadlines = new DeadlineSweep();
  private readonly notice: ListChangedNotice;
  private readonly pages: ToolPages;

  constructor(
    readonly serverInfo: Implementation,
    private readonly options: ServerOptions = {},
  ) {
    this.pageSize = options.pageSize ?? 1000;
    if (!(this.pageSize >= 1)) throw new RangeError('pageSize must be at least 1');
    if (options.toolTimeoutMs !== undefined && !isTimerDelay(options.toolTimeoutMs))
      throw new RangeError(
        `toolTimeoutMs must be a positive number of milliseconds up to ${MAX_TIMER_MS}`,
      );
    if (options.maxResultBytes !== undefined && !isByteLimit(options.maxResultBytes))
      throw new RangeError('maxResultBytes must be a positive whole number of bytes');
    // Checks the option (a RangeError naming what is wrong) before anything else is built.
    const rateLimits = new RateLimitPolicy(options.rateLimit);
    const outputPolicy = compileServerPolicy(options.sanitize);
    this.capabilities = {
      ...options.capabilities,
      ...(options.logging === false ? {} : { logging: {} }),
      tools: { listChanged: true },
    };
    const versions: readonly Revision[] = options.protocolVersions ?? [
      ...SUPPORTED_PROTOCOL_VERSIONS,
      ...MODERN_PROTOCOL_VERSIONS,
    ];
    const sorted = SUPPORTED_PROTOCOL_VERSIONS.filter((v) => versions.includes(v));
    const modern = MODERN_PROTOCOL_VERSIONS.filter((v) => versions.includes(v));
    if (sorted.length + modern.length === 0)
      throw new RangeError('protocolVersions must name at least one revision toolwire serves');
    const cacheHints = checkedCacheHints(options.cacheHints);
    this.pages = new ToolPages({
      registry: this.registry,
      pageSize: this.pageSize,
      cacheHints,
      callerDependent: options.visibility !== undefined,
      changeCount: () => this.notice.changes,
      isVisible: (entry, session, identity) => this.isVisible(entry, session, identity),
    });
    const report = options.onerror ?? defaultReport;
    this.listens = new ListenStreams(options.listens);
    this.notice = new ListChangedNotice(
      { sessions: this.live, listens: this.listens },
      options.listChangedDebounceMs ?? 10,
    );
    this.tasks = options.tasks === false ? undefined : new TaskRuntime(options.tasks ?? {}, report);
    const callDependencies: CallDependencies = {
      findTool: (name, session, identity) => this.findTool(name, session, identity),
      rateLimits,
      outputPolicy,
      defaultTimeoutMs: options.toolTimeoutMs ?? 300_000,
      structuredText: options.structuredText ?? true,
      exposeErrorMessages: options.exposeErrorMessages ?? false,
      maxResultBytes: options.maxResultBytes ?? 2 * 1024 * 1024,
      tasks: this.tasks,
      deadlines: this.deadlines,
      report,
    };
    const services: ServerServices = {
      tasks: this.tasks,
      listTools: (session, identity, cursor) => this.pages.list({ session, identity }, cursor),
      callDependencies,
      middleware: this.middleware,
      paramHeaders: (name) => {
        const entry = this.registry.get(name);
        return entry?.enabled ? entry.paramHeaders : undefined;
      },
      toolDefinition: (name, profile) => {
        const entry = typeof name === 'string' ? this.registry.get(name) : undefined;
        return entry?.enabled ? projectedDefinition(entry, profile) : undefined;
      },
    };
    this.rounds = roundTripOptions(options.inputRoundTrips, report);
    this.host = {
      ...services,
      protocolVersions: sorted,
      changeCount: () => this.notice.changes,
      initializeResult: (profile, o) => this.initializeResult(profile, o),
      dispatcher: new Dispatcher(legacyHandlerTable(services), this.middleware),
      modern: buildModernFront({
        services,
        serverInfo,
        capabilities: this.capabilities,
        instructions: options.instructions,
        cacheHints,
        versions: modern,
        handshakeVersions: sorted,
        rounds: this.rounds,
        listens: this.listens,
      }),
      instrumentations: this.instrumentations,
      connectionOptions: {
        maxInFlight: options.maxInFlight ?? 64,
        maxQueued: options.maxQueued ?? 1024,
        requestTimeoutMs: options.requestTimeoutMs ?? 60_000,
      },
      sessionClosed: (session) => this.live.delete(session as ServerSession),
    };
    this.registry.onChange(() => {
      this.notice.changed();
    });
  }

  /**
   * Registers a tool. The handler's argument and result types follow from the schemas. Throws a
   * TypeError for an invalid name, a name in use, or an unusable schema.
   */
  registerTool<
    I extends SchemaInput | undefined = undefined,
    O extends OutputSchemaInput | undefined = undefined,
  >(name: string, config: ToolConfig<I, O>, handler: ToolHandler<I, O>): RegisteredTool {
    return this.registry.register(name, config, handler);
  }

  /**
   * Adds a middleware around the requests of every session (see `Middleware`): by default
   * innermost, around the handler; `{ before: stage }` or `{ after: stage }` places it relative to
   * the built-in stages `access` → `rateLimit` → `sanitize`. Applies to requests that arrive from
   * now on; the middleware's `instrumentation`, if it has one, to sessions connected from now on.
   * Returns the server, for chaining.
   */
  use(middleware: Middleware, placement?: MiddlewarePlacement): this {
    this.middleware.add(middleware, placement);
    if (middleware.instrumentation) this.instrumentations.push(middleware.instrumentation);
    return this;
  }

  /** The registered tools' full definitions, in registration order (enabled or not). */
  listRegisteredTools(): Array<{ definition: Tool; enabled: boolean }> {
    return this.registry.entries().map((e) => ({ definition: e.definition, enabled: e.enabled }));
  }

  /**
   * Serves one client over `transport`. Resolves once the transport has started. A transport that
   * a server or client connected before is refused (a `transport` LocalError).
   */
  async connect(transport: Transport, options: ConnectOptions = {}): Promise<ServerSession> {
    claimTransport(transport, 'McpServer.connect');
    const session = new ServerSession(this.host, transport, options);
    this.live.add(session);
    await session.start();
    return session;
  }

  /**
   * Keeps tasks in `store` instead of the one given to the constructor: for a host that decides
   * where state lives (`toolwire serve --redis`) while the module decides everything else. Only
   * before the first session; throws when tasks are off.
   */
  useTaskStore(store: TaskStore): void {
    if (!this.tasks) throw new Error('Tasks are off on this server (tasks: false)');
    if (this.live.size > 0) throw new Error('Sessions are open: the task store cannot change');
    this.tasks.useStore(store);
  }

  /**
   * Counts rate limits in `store` instead of the one given to the constructor (or the default in
   * memory): for a host that decides where state lives (`toolwire serve --redis` shares them
   * between instances). Only before the first session.
   */
  useRateLimitStore(store: RateLimitStore): void {
    if (this.live.size > 0)
      throw new Error('Sessions are open: the rate limit store cannot change');
    this.host.callDependencies.rateLimits.useStore(store);
  }

  /**
   * Signs 2026 request states with `secret` and remembers spent ones in `spentStates`, instead
   * of the `inputRoundTrips` options: for a host that decides where state lives (`toolwire serve
   * --redis` gives every instance the same secret and store). Before serving.
   */
  useInputRoundTrips(shared: { secret: string | Uint8Array; spentStates: SpentStateStore }): void {
    this.rounds.codec = new RequestStateCodec(shared.secret);
    this.rounds.spent = shared.spentStates;
  }

  /** The revisions this server accepts, oldest first. */
  get protocolVersions(): readonly ProtocolVersion[] {
    return this.host.protocolVersions;
  }

  /**
   * The 2026-07-28 front, which transports hand stateless requests to (`createHttpHandler` does);
   * undefined when the server serves no 2026 revision.
   */
  get modernFront(): ModernFront | undefined {
    return this.host.modern;
  }

  /** The sessions currently open. */
  get sessions(): ReadonlySet<ServerSession> {
    return this.live;
  }

  /**
   * Closes every session. Tasks running in this process get `taskGraceMs` (default 0) to finish;
   * the rest are failed ("The server shut down before the task finished") and their handlers
   * aborted.
   */
  async close(options: { taskGraceMs?: number } = {}): Promise<void> {
    // Tasks first, while their sessions can still hear how they ended.
    await this.tasks?.drain(options.taskGraceMs ?? 0);
    this.notice.stop();
    this.deadlines.stop();
    this.listens.closeAll();
    await Promise.allSettled([...this.live].map((s) => s.close()));
    this.tasks?.close();
  }

  /**
   * Sends `list_changed` now to every initialized session and every `subscriptions/listen` stream
   * that asked for it. Changes made through the registry send it by themselves; call this when
   * what `visibility` decides has changed.
   */
  sendToolListChanged(): void {
    this.notice.changedNow();
  }

  /**
   * The OAuth scopes a caller needs for the enabled tool `name` (its `scopes`), or undefined when
   * it needs none or no such tool is enabled. The HTTP handler asks it to answer a `tools/call`
   * the caller lacks the scopes for with 403 `insufficient_scope` before the call is dispatched.
   */
  toolScopes(name: string): readonly string[] | undefined {
    const entry = this.registry.get(name);
    return entry?.enabled ? entry.scopes : undefined;
  }

  private isVisible(
    entry: ToolEntry,
    session: SessionPort,
    identity: Identity | undefined,
  ): boolean {
    // A tool that needs scopes the caller lacks is hidden, before any visibility hook runs.
    if (entry.scopes !== undefined && !hasScopes(identity, entry.scopes)) return false;
    const visibility = this.options.visibility;
    if (!visibility) return true;
    try {
      return visibility(entry.definition, { session: session.info, identity }) === true;
    } catch (error) {
      // A failing access check denies: never expose a tool because the check broke.
      this.host.callDependencies.report(error, `visibility check for tool "${entry.name}" threw`);
      return false;
    }
  }

  private findTool(
    name: string,
    session: SessionPort,
    identity: Identity | undefined,
  ): ToolEntry | undefined {
    const entry = this.registry.get(name);
    if (!entry || !entry.enabled || !this.isVisible(entry, session, identity)) return undefined;
    return entry;
  }

  private initializeResult(
    profile: RevisionProfile,
    options: { tasks: boolean },
  ): InitializeResult {
    const capabilities: ServerCapabilities = options.tasks
      ? { ...this.capabilities, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }
      : this.capabilities;
    return initializeResultOf(profile, {
      serverInfo: this.serverInfo,
      capabilities,
      instructions: this.options.instructions,
    });
  }
}

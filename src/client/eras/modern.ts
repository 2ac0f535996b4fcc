/**
 * @module The 2026-07-28 client session (stateless; tools only): `server/discover` instead of a
 * handshake, the revision, capabilities and client info in every request's `_meta`, `resultType`
 * checked on every result, each tool's `x-mcp-header` annotations mirrored as `Mcp-Param-*`
 * headers, and `input_required` results answered by the client's handlers and sent again.
 */
import type { Connection } from '../../jsonrpc/connection.js';
import { ErrorCode, LocalError, RpcError } from '../../jsonrpc/errors.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import { CallTool, CancelTask, Discover, ListTools } from '../../protocol/methods.js';
import type { LoggingLevel, Tool } from '../../protocol/types.js';
import {
  featuresOf,
  type ModernProtocolVersion,
  type RevisionFeatures,
} from '../../protocol/versions.js';
import { parseDiscoverResult } from '../../protocol/eras/rev2026/discover.js';
import {
  paramHeadersOf,
  paramHeaderValues,
  type ParamHeader,
} from '../../protocol/eras/rev2026/paramHeaders.js';
import { META, statelessRequestMeta } from '../../protocol/eras/rev2026/requestMeta.js';
import { checkResultType } from '../../protocol/eras/rev2026/resultType.js';
import { TASKS_EXTENSION } from '../../tasks/eras/rev2026/taskWire.js';
import { creatingCall, followTask, type ExtensionLink } from './extensionTasks.js';
import { extensionTaskState } from '../tasks/taskState.js';
import type { CallToolOptions, ServerDescription } from '../clientOptions.js';
import type { CacheContext } from '../../jsonrpc/transport.js';
import { CachedPages } from '../cache/cachedPages.js';
import { answerInputRequests } from '../input/inputRequests.js';
import { ToolListSubscription } from './modernListen.js';
import { withVersionRetry } from './versionRetry.js';
import {
  callRequestOptions,
  openingRequestOptions,
  type CallSendOptions,
  type EraSession,
  type Opening,
} from './eraSession.js';

/** The revision this session speaks. */
const VERSION: ModernProtocolVersion = '2026-07-28';

/** Rounds of input (`input_required` results) one call may take. */
const MAX_INPUT_ROUNDS = 8;

/**
 * The only core methods the client's API speaks on this revision. The task methods of the API
 * (`getTask` and the others) speak the tasks extension's here, through `extensionLink`; the
 * 2025-11-25 ones (`tasks/list`, `tasks/result`) are not this revision's.
 */
const SPOKEN: ReadonlySet<string> = new Set([ListTools.method, CallTool.method]);

/** A session opened by `server/discover`. */
class ModernSession implements EraSession {
  readonly features: RevisionFeatures = featuresOf(VERSION);
  readonly schemaDialect = '2020-12';
  /** The definition carries the tool's `x-mcp-header` annotations. */
  readonly callsNeedDefinition = true;
  /** Each listed tool's `x-mcp-header` annotations. */
  private readonly paramHeaders = new Map<string, readonly ParamHeader[]>();
  /** The `tools/list` pages, through the client's cache (cache hints). */
  private readonly pages: CachedPages;
  /** The `subscriptions/listen` stream for tool changes, when one is open. */
  private subscription: ToolListSubscription | undefined;
  /** The server offers the tasks extension and the client speaks it (option `tasksExtension`). */
  private readonly tasksExtension: boolean;

  constructor(
    readonly server: ServerDescription,
    /** The `_meta` every request carries (with the log level asked for, once there is one). */
    private meta: JsonObject,
    /**
     * The handlers that answer the server's input requests, the cache, where faults go, and
     * whether the client speaks the tasks extension.
     */
    private readonly client: Pick<
      Opening,
      'input' | 'report' | 'cache' | 'transport' | 'tasksExtension' | 'watchTask'
    >,
  ) {
    this.tasksExtension =
      client.tasksExtension && server.capabilities.extensions?.[TASKS_EXTENSION] !== undefined;
    const connectionOnly: CacheContext = {
      endpoint: `connection:${crypto.randomUUID()}`,
      credential: '',
    };
    const { transport } = client;
    const contextOf = () => transport.cacheContext?.() ?? Promise.resolve(connectionOnly);
    this.pages = new CachedPages(client.cache, ListTools.method, contextOf);
  }

  get listening(): boolean {
    return this.subscription?.live === true;
  }

  /** A listing stays true while the server's `subscriptions/listen` stream announces changes. */
  get trustsCompleteListing(): boolean {
    return this.listening;
  }

  /**
   * Opens `subscriptions/listen` for `toolsListChanged` when the server announces tool changes;
   * `missedChanges` is told when a reopened stream may have missed some.
   */
  listen(connection: Connection, missedChanges: () => void): void {
    if (this.server.capabilities.tools?.listChanged !== true || this.subscription) return;
    this.subscription = new ToolListSubscription({
      connection,
      withMeta: (params) => this.withMeta(params),
      missedChanges,
      report: (error) => this.client.report(error),
    });
    this.subscription.start();
  }

  /** Not a request on this revision: every request from now on carries the level in `_meta`. */
  setLogLevel(_connection: Connection, level: LoggingLevel): Promise<void> {
    this.meta = { ...this.meta, [META.logLevel]: level };
    return Promise.resolve();
  }

  toolsChanged(): void {
    this.pages.forget();
  }

  acknowledged(params: JsonObject | undefined): void {
    this.subscription?.acknowledged(params);
  }

  unspoken(method: string): LocalError | undefined {
    if (SPOKEN.has(method)) return undefined;
    return new LocalError(
      'unsupported-version',
      `${method} is not part of the ${VERSION} revision this client speaks to the server`,
    );
  }

  /**
   * The 2025-11-25 task path is never this revision's: a call that asks for a task declares the
   * tasks extension instead (sendCall), where the server offers it.
   */
  taskCallsOffered(requested: CallToolOptions['task']): boolean {
    if (requested !== undefined && requested !== false && !this.tasksExtension)
      throw new LocalError(
        'invalid-tool',
        `Tasks are not part of the ${VERSION} revision, and the server offers no tasks extension`,
      );
    return false;
  }

  async listPage(
    connection: Connection,
    cursor: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<JsonObject> {
    const raw = await this.pages.page(cursor, () =>
      withVersionRetry(
        () =>
          connection.request(
            ListTools.method,
            this.withMeta(cursor === undefined ? {} : { cursor }),
            signal ? { signal } : {},
          ),
        VERSION,
      ),
    );
    if (checkResultType(raw, ListTools.method) !== 'complete')
      throw new LocalError('invalid-response', `The ${ListTools.method} result asks for input`);
    return raw;
  }

  /**
   * Keeps each tool's `x-mcp-header` annotations for its calls, and drops (reported) a tool whose
   * annotations are invalid, as 2026-07-28 requires of clients.
   */
  keepTools(tools: Tool[]): Tool[] {
    this.paramHeaders.clear();
    return tools.filter((tool) => {
      const found = paramHeadersOf(tool);
      if ('problem' in found) {
        this.client.report(
          new LocalError('invalid-tool', `Tool "${tool.name}" is left out: ${found.problem}`),
        );
        return false;
      }
      if (found.headers.length > 0) this.paramHeaders.set(tool.name, found.headers);
      return true;
    });
  }

  /** The request options of a call of `name`: its `Mcp-Param-*` headers as last listed. */
  private callOptions(name: string, params: JsonObject, options: CallSendOptions) {
    const headers = this.paramHeaders.get(name);
    return {
      ...callRequestOptions(options),
      ...(headers
        ? { headers: paramHeaderValues(headers, params['arguments'] as Record<string, unknown>) }
        : {}),
    };
  }

  /**
   * The tools' `x-mcp-header` annotations as the server lists them now: a -32020 on a call's
   * `Mcp-Param-*` headers means the tool's input schema changed since the last listing.
   */
  private async relist(connection: Connection, signal: AbortSignal | undefined): Promise<void> {
    this.pages.forget();
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const raw = await this.listPage(connection, cursor, signal);
      if (Array.isArray(raw['tools'])) tools.push(...(raw['tools'] as Tool[]));
      const next = raw['nextCursor'];
      if (typeof next !== 'string') break;
      cursor = next;
    }
    this.keepTools(tools);
  }

  /** The first request of a call; after a -32020 (headers disagreeing), re-listed and sent once more. */
  private async firstRequest(
    connection: Connection,
    params: JsonObject,
    options: CallSendOptions,
  ): Promise<JsonObject> {
    const name = params['name'] as string;
    const send = () => {
      const sendOptions = this.callOptions(name, params, options);
      // The call's scope goes with its first request only (rounds of input are their own).
      return withVersionRetry(
        () =>
          connection.request(
            CallTool.method,
            params,
            options.scope ? { ...sendOptions, scope: options.scope } : sendOptions,
          ),
        VERSION,
      );
    };
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof RpcError) || error.code !== ErrorCode.HeaderMismatch) throw error;
      // The streamable-http page: re-list to learn the tool's current headers, then retry.
      await this.relist(connection, options.signal);
      return await send();
    }
  }

  /** One `tools/call` with its `Mcp-Param-*` headers, sent again with the client's answers while the server asks for input. */
  async sendCall(
    connection: Connection,
    params: JsonObject,
    options: CallSendOptions,
  ): Promise<JsonObject> {
    const name = params['name'] as string;
    // A call that asks for a task declares the tasks extension; one that does not is sent once
    // more declaring it when the server answers that the tool runs only as a task (-32021).
    const asksTask = options.task !== undefined && options.task !== false;
    let meta = asksTask && this.tasksExtension ? withTasksExtension(this.meta) : this.meta;
    // A request that may be answered with a task is never abandoned half-way (creatingCall).
    const { signal } = options;
    const cancel = (taskId: string) =>
      connection.request(CancelTask.method, this.withMeta({ taskId }, meta), { timeoutMs: 10_000 });
    const unabandoned: CallSendOptions = { ...options, signal: undefined };
    const send = (declared: boolean): Promise<JsonObject> =>
      declared
        ? creatingCall(
            this.firstRequest(connection, this.withMeta(params, meta), unabandoned),
            signal,
            cancel,
          )
        : this.firstRequest(connection, this.withMeta(params, meta), options);
    let raw: JsonObject;
    try {
      raw = await send(meta !== this.meta);
    } catch (error) {
      if (meta !== this.meta || !this.tasksExtension || !needsTasksExtension(error)) throw error;
      meta = withTasksExtension(this.meta);
      raw = await send(true);
    }
    const declared = meta !== this.meta;
    const sendOptions = this.callOptions(name, params, options);
    for (let round = 1; resultKind(raw, declared) === 'input_required'; round++) {
      if (round > MAX_INPUT_ROUNDS)
        throw new LocalError(
          'invalid-response',
          `The server asked for input more than ${MAX_INPUT_ROUNDS} times for one call to "${name}"`,
        );
      const inputResponses = await answerInputRequests(
        this.client.input,
        raw['inputRequests'],
        options.signal,
      );
      const state = raw['requestState'];
      const next: JsonObject = { ...params };
      if (inputResponses) next['inputResponses'] = inputResponses;
      if (typeof state === 'string') next['requestState'] = state;
      const retry = (how: typeof sendOptions) =>
        withVersionRetry(
          () => connection.request(CallTool.method, this.withMeta(next, meta), how),
          VERSION,
        );
      raw = declared
        ? await creatingCall(retry({ ...sendOptions, signal: undefined }), signal, cancel)
        : await retry(sendOptions);
    }
    // A task (the tasks extension, which the client declared): followed to its end, or handed
    // back as created to a caller who starts it.
    if (raw['resultType'] === 'task') {
      if (options.start) return raw;
      return followTask(extensionTaskState(raw), this.linkOf(connection, meta), {
        signal: options.signal,
        ontaskstatus: options.ontaskstatus,
      });
    }
    // `resultType` is this revision's envelope, not part of the result a host sees (or forwards).
    const { resultType: _envelope, ...result } = raw;
    return result;
  }

  extensionLink(connection: Connection): ExtensionLink | undefined {
    return this.tasksExtension ? this.linkOf(connection, withTasksExtension(this.meta)) : undefined;
  }

  /** The extension's requests on `connection`, sent with `meta` (which declares it). */
  private linkOf(connection: Connection, meta: JsonObject): ExtensionLink {
    return {
      connection,
      withMeta: (params) => this.withMeta(params, meta),
      input: this.client.input,
      watch: this.client.watchTask,
    };
  }

  /** Params as sent: with the session's `_meta` (or `meta`) merged in. */
  private withMeta(params: JsonObject, meta: JsonObject = this.meta): JsonObject {
    const own = params['_meta'];
    return {
      ...params,
      _meta: own && typeof own === 'object' ? { ...own, ...meta } : meta,
    };
  }
}

/**
 * Opens a 2026-07-28 session: the revision told to the transport first (HTTP sends it, and each
 * message's method and name, as headers), then `server/discover`.
 */
export async function openModern(opening: Opening): Promise<EraSession> {
  // 2026-07-28 has no roots/list_changed: the roots capability has no members.
  const capabilities = opening.capabilities.roots
    ? { ...opening.capabilities, roots: {} }
    : opening.capabilities;
  opening.transport.setProtocolVersion?.(VERSION, { stateless: true });
  const meta = statelessRequestMeta(VERSION, { capabilities, info: opening.clientInfo });
  if (opening.logLevel !== undefined) meta[META.logLevel] = opening.logLevel;
  const found = parseDiscoverResult(
    await withVersionRetry(
      () =>
        opening.connection.request(
          Discover.method,
          { _meta: meta },
          openingRequestOptions(opening.options),
        ),
      VERSION,
    ),
  );
  if (!found.supportedVersions.includes(VERSION))
    throw new LocalError(
      'unsupported-version',
      `The server supports ${found.supportedVersions.join(', ') || 'no revision'}, not ${VERSION}`,
    );
  const server: ServerDescription = {
    protocolVersion: VERSION,
    capabilities: found.capabilities,
    serverInfo: found.serverInfo ?? { name: 'unknown', version: '' },
    ...(found.instructions !== undefined ? { instructions: found.instructions } : {}),
  };
  const session = new ModernSession(server, meta, opening);
  opening.agreed(session);
  if (opening.listen) session.listen(opening.connection, opening.missedChanges);
  return session;
}

/** `meta` whose client capabilities declare the tasks extension. */
function withTasksExtension(meta: JsonObject): JsonObject {
  const capabilities = (meta[META.clientCapabilities] ?? {}) as JsonObject;
  const extensions = (capabilities['extensions'] ?? {}) as JsonObject;
  return {
    ...meta,
    [META.clientCapabilities]: {
      ...capabilities,
      extensions: { ...extensions, [TASKS_EXTENSION]: {} },
    },
  };
}

/** True for a -32021 whose required capabilities name the tasks extension. */
function needsTasksExtension(error: unknown): boolean {
  if (!(error instanceof RpcError) || error.code !== ErrorCode.MissingRequiredClientCapability)
    return false;
  const data = error.data as { requiredCapabilities?: { extensions?: object } } | undefined;
  const extensions = data?.requiredCapabilities?.extensions;
  return typeof extensions === 'object' && extensions !== null && TASKS_EXTENSION in extensions;
}

/** A call result's kind: `task` only where the call declared the tasks extension. */
function resultKind(raw: JsonObject, declared: boolean): string {
  if (raw['resultType'] === 'task') {
    if (declared) return 'task';
    throw new LocalError(
      'invalid-response',
      'The server answered with a task, although the call did not declare the tasks extension',
    );
  }
  return checkResultType(raw, CallTool.method);
}

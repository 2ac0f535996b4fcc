/**
 * @module What a tool handler receives besides its arguments: cancellation, progress, logging,
 * requests to the client made on behalf of the call, the session and the caller's identity.
 * At the top of server/ because every part of the server (fronts, dispatch, call, middleware,
 * registry, tasks) speaks in these types.
 */
import type { Cancellation } from '../jsonrpc/cancellation.js';
import { RELATED_TASK, type Task } from '../tasks/eras/rev2025/taskWire.js';
import type { RequestOptions } from '../jsonrpc/connection.js';
import type { Identity, TransportNetwork } from '../jsonrpc/transport.js';
import type { JsonObject, ProgressToken, RequestId } from '../jsonrpc/types.js';
import {
  LOGGING_LEVELS,
  type ClientCapabilities,
  type CreateMessageParams,
  type CreateMessageResult,
  type ElicitFormParams,
  type ElicitParams,
  type ElicitResult,
  type Implementation,
  type ListRootsResult,
  type LoggingLevel,
  type LoggingMessageParams,
  type Meta,
  type ProgressParams,
} from '../protocol/types.js';
import type { RevisionProfile } from '../protocol/eras/era.js';
import type { Revision } from '../protocol/versions.js';
import type {
  InputAnswer,
  InputCall,
  InputChannel,
  InputRequest,
  TaskBinding,
} from './input/inputChannel.js';
import { DetachRequested } from './tasks/detach.js';
import type { OutputPolicy } from './sanitize/outputPolicy.js';
import { sanitizeText } from './sanitize/sanitizeResult.js';

/**
 * What a handler may know about the session it serves. A 2026-07-28 request has no session: it
 * describes itself (its `_meta`), and `id` is a random id of that request alone.
 */
export interface SessionInfo {
  /** A random id of this server-side session (also the HTTP session id when there is one). */
  readonly id: string;
  readonly protocolVersion: Revision;
  readonly clientInfo: Implementation;
  readonly clientCapabilities: ClientCapabilities;
}

/** A logger that sends `notifications/message` to the client, filtered by its chosen level. */
export type ToolLogger = {
  readonly [L in LoggingLevel]: (data: unknown, logger?: string) => void;
};

/** Options of a request made to the client on behalf of a call. */
export interface ClientRequestOptions {
  /** Default: the connection's request timeout. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * The key naming this request in a 2026-07-28 `input_required` result (`inputRequests`), and
   * its answer in the retry. Default: derived from the request's position among the call's
   * requests and its content. Unique within one call. Ignored on 2025 sessions (push requests).
   */
  inputKey?: string;
}

/**
 * The second argument of every tool handler. Every member works on its own, so the context can
 * be destructured: `async (args, { signal, progress, log, elicit }) => …` (the functions need no
 * `this`, which their types say with `this: void`).
 */
export interface ToolContext {
  /** Aborted when the client cancels the call, the call's deadline passes or the session ends. */
  readonly signal: AbortSignal;
  /** The JSON-RPC id of the `tools/call` request. */
  readonly requestId: RequestId;
  /** The name of the tool being called. */
  readonly toolName: string;
  /** `_meta` of the request, if any. */
  readonly meta: Meta | undefined;
  readonly session: SessionInfo;
  /** The caller, as the transport or `connect()` established it. */
  readonly identity: Identity | undefined;
  /** One function per logging level, e.g. `log.info(data, logger?)`; each works on its own. */
  readonly log: ToolLogger;
  /**
   * Reports progress when the client asked for it (a no-op otherwise). Values must increase;
   * one that does not is dropped, as are reports after the call ended.
   */
  readonly progress: (
    this: void,
    progress: number,
    details?: { total?: number; message?: string },
  ) => void;
  /** Asks the client's model for a completion (`sampling/createMessage`). */
  readonly sample: (
    this: void,
    params: CreateMessageParams,
    options?: ClientRequestOptions,
  ) => Promise<CreateMessageResult>;
  /** Asks the user for input (`elicitation/create`). */
  readonly elicit: (
    this: void,
    params: ElicitParams,
    options?: ClientRequestOptions,
  ) => Promise<ElicitResult>;
  /** Asks the client for its roots (`roots/list`). */
  readonly listRoots: (this: void, options?: ClientRequestOptions) => Promise<ListRootsResult>;
  /**
   * Asks the user to approve what the call is about to do (an elicitation with nothing to fill
   * in: accepting approves). True only when approved. On 2026 requests the approval comes back in
   * a retry and lets the work through once: that retry sent again gets an error result (its
   * request state is spent), and a first request cannot carry an approval the server never asked
   * for.
   */
  readonly confirm: (
    this: void,
    message: string,
    options?: ClientRequestOptions,
  ) => Promise<boolean>;
  /**
   * Ends the HTTP connection carrying this call's response stream without ending the stream: the
   * client reconnects after the announced `retry` delay and receives the rest, result included
   * (Streamable HTTP polling, SEP-1699). Frees the connection during a long call. Does nothing on
   * transports without streams.
   */
  readonly closeStream: (this: void) => void;
  /**
   * Continues the call as a task (the tasks extension, 2026-07-28; a tool registered with
   * `inputBeforeTask`): what the handler asked before is answered, the call becomes a task, and
   * the handler runs again from the start inside it, its earlier questions answered at once,
   * `detach()` resolving there. Resolves at once anywhere else (2025 sessions, a request without
   * the extension, a tool without `inputBeforeTask`, a run that already is the task).
   */
  readonly detach: (this: void) => Promise<void>;
}

/** The form of an approval: nothing to fill in (accept approves, decline or cancel do not). */
const APPROVAL_SCHEMA: ElicitFormParams['requestedSchema'] = { type: 'object', properties: {} };

/** What the call pipeline needs from the session to build a context. */
export interface SessionPort {
  readonly info: SessionInfo;
  /** The negotiated revision's profile (what it allows, how messages are cut to it). */
  readonly profile: RevisionProfile;
  readonly identity: Identity | undefined;
  log(message: LoggingMessageParams, relatedRequestId?: RequestId): void;
  sendProgress(params: ProgressParams, relatedRequestId: RequestId | undefined): void;
  requestClient(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject>;
  /** How the session's calls ask the client for input (push in 2025; chosen by its front). */
  readonly input: InputChannel;
  closeStream(requestId: RequestId): void;
  /** Sends `notifications/tasks/status`. */
  sendTaskStatus(task: Task): void;
  /** True when the session lives for one request only (stateless HTTP): its callers cannot be told apart. */
  readonly transient: boolean;
  /** How the session's messages travel (OpenTelemetry `network.transport`), when known. */
  readonly networkTransport: 'pipe' | 'tcp' | 'inproc' | undefined;
  /** What the session's transport knows of the network (HTTP), when it says. */
  readonly network: TransportNetwork | undefined;
}

// Kept importable from here, where the call pipeline and the task runtime have always found it.
export type { TaskBinding } from './input/inputChannel.js';

/** `detach()` where it ends the run (the pipeline then starts the task). */
const detachHere = (): Promise<void> => Promise.reject(new DetachRequested());
/** `detach()` where there is nothing to detach from. */
const notDetachable = (): Promise<void> => Promise.resolve();

/** What {@link CallContext} is built from. */
export interface CallContextOptions {
  /** Set when the call runs as a task. */
  task?: TaskBinding;
  session: SessionPort;
  requestId: RequestId;
  toolName: string;
  meta: Meta | undefined;
  /** Whose cancellation the call follows (read lazily: most calls never need it). */
  incoming: { readonly cancellation: Cancellation };
  identity: Identity | undefined;
  /** The output policy of the call's tool: progress messages are tool-provided text too. */
  outputPolicy?: OutputPolicy | undefined;
  /** How the call asks the client for input; default: the session's channel (`session.input`). */
  input?: InputChannel | undefined;
  /** `detach()` ends this run so that the call continues as a task (see ToolContext.detach). */
  detachable?: boolean;
}

/**
 * The context of one call. A class, not a literal of closures: one is built per call, on the hot
 * path, and its logger, its AbortSignal and each of its functions are created only when a
 * handler reads them. A function is bound to its context when first read (then kept), so it
 * works destructured, and a handler that uses none costs no closure.
 */
export class CallContext implements ToolContext {
  readonly requestId: RequestId;
  readonly toolName: string;
  readonly meta: Meta | undefined;
  readonly identity: Identity | undefined;
  private readonly port: SessionPort;
  private readonly incoming: { readonly cancellation: Cancellation };
  private readonly progressToken: ProgressToken | undefined;
  private lastProgress = -Infinity;
  private readonly task: TaskBinding | undefined;
  private active = true;
  private logger: ToolLogger | undefined;
  private readonly outputPolicy: OutputPolicy | undefined;
  private readonly input: InputChannel | undefined;
  private progressFn: ToolContext['progress'] | undefined;
  private sampleFn: ToolContext['sample'] | undefined;
  private elicitFn: ToolContext['elicit'] | undefined;
  private confirmFn: ToolContext['confirm'] | undefined;
  private listRootsFn: ToolContext['listRoots'] | undefined;
  private closeStreamFn: ToolContext['closeStream'] | undefined;
  private readonly detachable: boolean;

  constructor(options: CallContextOptions) {
    this.outputPolicy = options.outputPolicy;
    this.input = options.input;
    this.detachable = options.detachable === true;
    this.port = options.session;
    this.requestId = options.requestId;
    this.toolName = options.toolName;
    this.meta = options.meta;
    this.identity = options.identity;
    this.incoming = options.incoming;
    this.task = options.task;
    const token = options.meta?.['progressToken'];
    this.progressToken = typeof token === 'string' || typeof token === 'number' ? token : undefined;
  }

  /**
   * Read when a handler asks: a 2026 request's session info is made on first read (with a random
   * id), which most calls never need.
   */
  get session(): SessionInfo {
    return this.port.info;
  }

  get signal(): AbortSignal {
    return this.incoming.cancellation.signal;
  }

  get log(): ToolLogger {
    if (!this.logger) {
      const logger = {} as Record<LoggingLevel, (data: unknown, name?: string) => void>;
      for (const level of LOGGING_LEVELS) {
        logger[level] = (data, name) => {
          if (!this.active) return;
          const message: LoggingMessageParams =
            name === undefined ? { level, data } : { level, logger: name, data };
          if (this.task) message._meta = this.relatedTask();
          this.port.log(message, this.task ? this.task.route() : this.requestId);
        };
      }
      this.logger = logger;
    }
    return this.logger;
  }

  get progress(): ToolContext['progress'] {
    return (this.progressFn ??= (progress, details) => this.reportProgress(progress, details));
  }

  get sample(): ToolContext['sample'] {
    return (this.sampleFn ??= (params, options) => this.ask({ kind: 'sampling', params }, options));
  }

  get elicit(): ToolContext['elicit'] {
    return (this.elicitFn ??= (params, options) =>
      this.ask({ kind: 'elicitation', params }, options));
  }

  get detach(): ToolContext['detach'] {
    // Needs no `this`: one function of each kind serves every context.
    return this.detachable ? detachHere : notDetachable;
  }

  get listRoots(): ToolContext['listRoots'] {
    return (this.listRootsFn ??= (options) => this.ask({ kind: 'roots' }, options));
  }

  get confirm(): ToolContext['confirm'] {
    return (this.confirmFn ??= async (message, options) => {
      const params: ElicitFormParams = { message, requestedSchema: APPROVAL_SCHEMA };
      const answer = await this.ask({ kind: 'elicitation', params }, options, true);
      return answer.action === 'accept';
    });
  }

  get closeStream(): ToolContext['closeStream'] {
    return (this.closeStreamFn ??= () => this.endStream());
  }

  private endStream(): void {
    // A task's call has no stream of its own: its messages follow tasks/result or the GET stream.
    if (this.active && !this.task) this.port.closeStream(this.requestId);
  }

  private relatedTask(): Meta {
    return { [RELATED_TASK]: { taskId: (this.task as TaskBinding).taskId } };
  }

  /** Ends the call: later progress and log calls do nothing. */
  finish(): void {
    this.active = false;
  }

  private reportProgress(
    progress: number,
    details: { total?: number; message?: string } | undefined,
  ): void {
    if (!this.active || this.progressToken === undefined || !(progress > this.lastProgress)) return;
    this.lastProgress = progress;
    const params: ProgressParams = { progressToken: this.progressToken, progress };
    if (details?.total !== undefined) params.total = details.total;
    if (details?.message !== undefined)
      params.message = this.outputPolicy
        ? sanitizeText(details.message, this.outputPolicy)
        : details.message;
    if (this.task) params._meta = this.relatedTask();
    this.port.sendProgress(params, this.task ? this.task.route() : this.requestId);
  }

  /** Asks the client through the session's input channel, on behalf of this call. */
  private ask<R extends InputRequest>(
    request: R,
    options: ClientRequestOptions | undefined,
    approval = false,
  ): Promise<InputAnswer<R>> {
    const signal = options?.signal ? AbortSignal.any([this.signal, options.signal]) : this.signal;
    const call: InputCall = {
      requestId: this.requestId,
      signal,
      timeoutMs: options?.timeoutMs,
      task: this.task,
      key: options?.inputKey,
      approval: approval ? true : undefined,
    };
    return (this.input ?? this.port.input).ask(request, call);
  }
}

/**
 * @module What a tool handler receives besides its arguments: cancellation, progress, logging,
 * requests to the client made on behalf of the call, the session and the caller's identity.
 */
import { LocalError } from '../jsonrpc/errors.js';
import type { RequestOptions } from '../jsonrpc/connection.js';
import type { Identity } from '../jsonrpc/transport.js';
import type { JsonObject, RequestId } from '../jsonrpc/types.js';
import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  Implementation,
  ListRootsResult,
  LoggingLevel,
  LoggingMessageParams,
  Meta,
  ProgressParams,
} from '../protocol/types.js';
import { featuresOf, type ProtocolVersion } from '../protocol/versions.js';

/** What a handler may know about the session it serves. */
export interface SessionInfo {
  /** A random id of this server-side session (also the HTTP session id when there is one). */
  readonly id: string;
  readonly protocolVersion: ProtocolVersion;
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
}

/** The second argument of every tool handler. */
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
  readonly log: ToolLogger;
  /**
   * Reports progress when the client asked for it (a no-op otherwise). Values must increase;
   * one that does not is dropped, as are reports after the call ended.
   */
  progress(progress: number, details?: { total?: number; message?: string }): void;
  /** Asks the client's model for a completion (`sampling/createMessage`). */
  sample(params: CreateMessageParams, options?: ClientRequestOptions): Promise<CreateMessageResult>;
  /** Asks the user for input (`elicitation/create`). */
  elicit(params: ElicitParams, options?: ClientRequestOptions): Promise<ElicitResult>;
  /** Asks the client for its roots (`roots/list`). */
  listRoots(options?: ClientRequestOptions): Promise<ListRootsResult>;
}

/** What the call pipeline needs from the session to build a context. */
export interface SessionPort {
  readonly info: SessionInfo;
  readonly identity: Identity | undefined;
  log(message: LoggingMessageParams, relatedRequestId?: RequestId): void;
  sendProgress(params: ProgressParams, relatedRequestId: RequestId): void;
  requestClient(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject>;
}

/** Builds the context of one call; `finish()` turns progress and logging into no-ops. */
export function createToolContext(options: {
  session: SessionPort;
  requestId: RequestId;
  toolName: string;
  meta: Meta | undefined;
  signal: AbortSignal;
  identity: Identity | undefined;
}): { context: ToolContext; finish: () => void } {
  const { session, requestId, signal } = options;
  const token = options.meta?.['progressToken'];
  const progressToken = typeof token === 'string' || typeof token === 'number' ? token : undefined;
  let active = true;
  let lastProgress = -Infinity;
  const caps = session.info.clientCapabilities;
  const features = featuresOf(session.info.protocolVersion);

  const log = {} as Record<LoggingLevel, (data: unknown, logger?: string) => void>;
  for (const level of [
    'debug',
    'info',
    'notice',
    'warning',
    'error',
    'critical',
    'alert',
    'emergency',
  ] as const) {
    log[level] = (data, logger) => {
      if (active)
        session.log(logger === undefined ? { level, data } : { level, logger, data }, requestId);
    };
  }

  const ask = (
    method: string,
    params: JsonObject,
    o: ClientRequestOptions | undefined,
  ): Promise<JsonObject> => {
    const signals = o?.signal ? [signal, o.signal] : [signal];
    const request: RequestOptions = {
      signal: AbortSignal.any(signals),
      relatedRequestId: requestId,
    };
    if (o?.timeoutMs !== undefined) request.timeoutMs = o.timeoutMs;
    return session.requestClient(method, params, request);
  };

  const context: ToolContext = {
    signal,
    requestId,
    toolName: options.toolName,
    meta: options.meta,
    session: session.info,
    identity: options.identity,
    log,
    progress(progress, details) {
      if (!active || progressToken === undefined || !(progress > lastProgress)) return;
      lastProgress = progress;
      const params: ProgressParams = { progressToken, progress };
      if (details?.total !== undefined) params.total = details.total;
      if (details?.message !== undefined) params.message = details.message;
      session.sendProgress(params, requestId);
    },
    async sample(params, o) {
      if (!caps.sampling)
        throw new LocalError('capability-missing', 'The client does not support sampling');
      const wantsTools = params.tools !== undefined || params.toolChoice !== undefined;
      if (wantsTools && (!features.samplingTools || !caps.sampling.tools)) {
        throw new LocalError(
          'capability-missing',
          'The client does not support tool use in sampling',
        );
      }
      return (await ask(
        'sampling/createMessage',
        params as unknown as JsonObject,
        o,
      )) as unknown as CreateMessageResult;
    },
    async elicit(params, o) {
      const elicitation = caps.elicitation;
      if (!elicitation || !features.elicitation) {
        throw new LocalError('capability-missing', 'The client does not support elicitation');
      }
      if (params.mode === 'url') {
        if (!elicitation.url || !features.elicitationModes)
          throw new LocalError(
            'capability-missing',
            'The client does not support URL-mode elicitation',
          );
        return (await ask(
          'elicitation/create',
          params as unknown as JsonObject,
          o,
        )) as unknown as ElicitResult;
      }
      // An empty elicitation capability means form mode (2025-11-25 back-compat rule).
      if (elicitation.url && !elicitation.form && Object.keys(elicitation).length > 0) {
        throw new LocalError(
          'capability-missing',
          'The client does not support form-mode elicitation',
        );
      }
      const sent: JsonObject = { ...params };
      // `mode` does not exist before 2025-11-25.
      if (!features.elicitationModes) delete sent['mode'];
      return (await ask('elicitation/create', sent, o)) as unknown as ElicitResult;
    },
    async listRoots(o) {
      if (!caps.roots)
        throw new LocalError('capability-missing', 'The client does not support roots');
      return (await ask('roots/list', {}, o)) as unknown as ListRootsResult;
    },
  };
  return {
    context,
    finish: () => {
      active = false;
    },
  };
}

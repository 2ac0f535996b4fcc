/**
 * @module What a `Connection` (connection.ts) is given: the handlers of incoming requests and
 * notifications, connection-wide options, and the options of one outgoing request.
 */
import type { Deferred } from './deferred.js';
import type { IncomingRequestContext } from './incomingRequest.js';
import type {
  NotificationInterceptor,
  NotificationObserver,
  RequestInterceptor,
} from './interceptors.js';
import type { Progress } from './pendingRequests.js';
import type { MessageInfo } from './transport.js';
import type { JsonObject, JsonRpcNotification, JsonRpcRequest, RequestId } from './types.js';

/**
 * Answers one incoming request: at once, with a Promise, or with a {@link Deferred} the handler
 * settles itself (no promise hop); throw an {@link RpcError} to answer with an error.
 */
export type RequestHandler = (
  request: JsonRpcRequest,
  context: IncomingRequestContext,
) => JsonObject | Promise<JsonObject> | Deferred<JsonObject>;

/** Receives incoming notifications other than cancellation and progress. */
export type NotificationHandler = (
  notification: JsonRpcNotification,
  info: MessageInfo | undefined,
) => void;

/** Options of one outgoing request. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** Default: the connection's `requestTimeoutMs`. */
  timeoutMs?: number;
  /** Default: the connection's `maxTotalTimeoutMs`. */
  maxTotalTimeoutMs?: number;
  resetTimeoutOnProgress?: boolean;
  /** Setting it sends a progress token and routes progress notifications here. */
  onprogress?: (progress: Progress) => void;
  /** The incoming request this one is made on behalf of (routes it on Streamable HTTP). */
  relatedRequestId?: RequestId;
  /** False for requests that must never be cancelled (`initialize`). Default true. */
  cancellable?: boolean;
  /** Headers for the transport's HTTP request (see {@link SendOptions.headers}). */
  headers?: Readonly<Record<string, string>>;
  /** Handed to the request interceptor as `OutgoingRequest.scope`; nothing else reads it. */
  scope?: unknown;
}

/** Connection-wide options. */
export interface ConnectionOptions {
  /** Incoming requests whose handlers run at once; more wait (see `maxQueued`). Default 64. */
  maxInFlight?: number;
  /**
   * Incoming requests that may wait for a slot. When that many wait, a transport that can stop
   * reading does so until half have started; one that cannot gets further requests refused with
   * -32000. Default 1024.
   */
  maxQueued?: number;
  /** Default timeout of outgoing requests. Default 60 000 ms. */
  requestTimeoutMs?: number;
  /** Default hard cap on an outgoing request's total time. Default 600 000 ms. */
  maxTotalTimeoutMs?: number;
  /** Whether an incoming JSON array (a batch) is accepted now. Default: never. */
  batchesAllowed?: () => boolean;
  /**
   * Whether an error whose request id could not be read omits `id` (MCP 2025-11-25) instead of
   * sending `id: null` (JSON-RPC 2.0). Default: null.
   */
  omitUnreadableErrorId?: () => boolean;
  /** Faults that did not close the connection. */
  onerror?: (error: Error) => void;
  /**
   * Wraps each outgoing request (see {@link RequestInterceptor}). Without one, requests go
   * straight out: no closure, no extra call.
   */
  interceptRequest?: RequestInterceptor;
  /** Wraps each outgoing notification (see {@link NotificationInterceptor}). */
  interceptNotification?: NotificationInterceptor;
  /** Wraps the handling of each incoming notification (see {@link NotificationObserver}). */
  observeNotification?: NotificationObserver;
}

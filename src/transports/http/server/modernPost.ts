/**
 * @module A POST of revision 2026-07-28 (basic/transports/streamable-http): one request, no
 * session, served by the server's 2026 front. The headers must say what the body says (-32020);
 * the front reads `_meta` once (its -32602 is a `RequestMetaError`, so it gets status 400; and
 * -32022); the answer is JSON when the request is answered without sending anything first, else
 * an SSE stream of the request's own
 * notifications and then its response. Closing the connection cancels the request, as the page
 * requires (the 2025 rule was the opposite). Errors keep the request's id, with the status the
 * page gives: 400 for the typed errors and malformed `_meta`, 404 for an unknown method.
 */
import { Deferred } from '../../../jsonrpc/deferred.js';
import { ErrorCode, RpcError, toRpcError } from '../../../jsonrpc/errors.js';
import { classifyMessage, type Classified } from '../../../jsonrpc/guards.js';
import { TOOLS_CALL } from '../../../jsonrpc/methods.js';
import { IncomingRequest } from '../../../jsonrpc/incomingRequest.js';
import { encodeMessage } from '../../../jsonrpc/rawJson.js';
import type { Identity, TransportNetwork } from '../../../jsonrpc/transport.js';
import type {
  JsonObject,
  JsonRpcMessage,
  JsonRpcRequest,
  RequestId,
} from '../../../jsonrpc/types.js';
import { isModernRequestError } from '../../../protocol/eras/rev2026/errors.js';
import { RequestMetaError } from '../../../protocol/eras/rev2026/requestMetaCheck.js';
import { Outbox } from '../../outbox.js';
import { formatSseEvent, SSE_HEADERS } from '../shared/sse.js';
import type { Caller } from './caller.js';
import { headerProblem, paramHeaderProblem } from './eras/rev2026.js';
import { JSON_HEADERS, SseChannel, type HttpExchange, type HttpReply } from './exchange.js';
import type { StatelessChannel, StatelessEndpoint, StatelessOutcome } from './statelessEndpoint.js';
import { failureReply } from './httpStatus.js';
import { decodedBody } from './postBody.js';
import { acceptsJsonAndSse, isJsonContentType } from './requestGuards.js';

/** What the 2026 POSTs of a handler share. */
export interface ModernPostOptions {
  readonly endpoint: StatelessEndpoint;
  readonly maxBodyBytes: number;
  readonly maxDepth: number | undefined;
  /** The OAuth resource server's per-tool scope check, when there is one. */
  readonly callScopesProblem:
    | ((classified: readonly Classified[], identity: Identity | undefined) => HttpReply | undefined)
    | undefined;
  report(error: unknown): void;
}

/** The status of an error answer (basic/transports/streamable-http §Status codes). */
function statusOf(error: RpcError): number {
  const code = error.code;
  if (error instanceof RequestMetaError || isModernRequestError(code)) return 400;
  return code === ErrorCode.MethodNotFound ? 404 : 200;
}

function errorReply(id: RequestId | null, error: RpcError): HttpReply {
  return {
    status: statusOf(error),
    headers: JSON_HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id, error: error.toJSON() }),
  };
}

/** Serves the 2026 POSTs of one handler. */
export class ModernPosts {
  constructor(private readonly options: ModernPostOptions) {}

  /** One 2026 POST. */
  async post(exchange: HttpExchange, caller: Caller): Promise<HttpReply> {
    if (!acceptsJsonAndSse(exchange.header))
      return failureReply(
        'notAcceptable',
        'Accept must list application/json and text/event-stream',
      );
    if (!isJsonContentType(exchange.header))
      return failureReply('unsupportedMediaType', 'Content-Type must be application/json');
    const decoded = decodedBody(await exchange.body(this.options.maxBodyBytes), this.options);
    if (!decoded.ok) return decoded.reply;
    if (Array.isArray(decoded.value))
      return failureReply('invalidMessage', 'Batches are not part of protocol revision 2026-07-28');
    const classified = classifyMessage(decoded.value);
    // A client notification (only notifications/cancelled exists, and closing the stream is the
    // cancellation over HTTP) needs nothing from the server.
    if (classified.kind === 'notification') return { status: 202, headers: {} };
    if (classified.kind === 'invalid')
      return errorReply(classified.id, new RpcError(ErrorCode.InvalidRequest, classified.reason));
    if (classified.kind === 'response')
      return failureReply(
        'invalidMessage',
        'A server of this revision sends no requests to answer',
      );
    return this.request({ exchange, caller }, classified);
  }

  /** The `Mcp-Param-*` headers of a `tools/call` against its arguments (the tool's annotations). */
  private paramProblem(exchange: HttpExchange, request: JsonRpcRequest): RpcError | undefined {
    if (request.method !== TOOLS_CALL) return undefined;
    const name = request.params?.['name'];
    const declared =
      typeof name === 'string' ? this.options.endpoint.paramHeaders(name) : undefined;
    if (declared === undefined) return undefined;
    return paramHeaderProblem(exchange.header, declared, request.params?.['arguments']);
  }

  private request(
    post: { exchange: HttpExchange; caller: Caller },
    classified: Classified & { kind: 'request' },
  ): HttpReply | Promise<HttpReply> {
    const { exchange, caller } = post;
    const request = classified.message;
    const mismatch =
      headerProblem(exchange.header, request) ?? this.paramProblem(exchange, request);
    if (mismatch) return errorReply(request.id, mismatch);
    const denied = this.options.callScopesProblem?.([classified], caller.identity);
    if (denied) return denied;
    return new PostedRequest(this.options, post, request).answer();
  }
}

type Outcome = { result: JsonObject } | { error: unknown };

/** One message as an SSE event. */
function eventOf(message: JsonRpcMessage | JsonRpcMessage[]): string {
  return formatSseEvent({ data: encodeMessage(message) });
}

/** An SSE comment, which clients ignore, and how often an open stream sends one. */
const KEEP_ALIVE = ': keep-alive\n\n';
const KEEP_ALIVE_MS = 15_000;

/** One request in flight: its notifications, its response, and its cancellation. */
class PostedRequest implements StatelessChannel {
  private readonly incoming: IncomingRequest;
  private stream: SseChannel | undefined;
  private settle: ((reply: HttpReply) => void) | undefined;
  private stopWatching: (() => void) | undefined;
  /** True while the front takes the request on (what it sends then waits for the reply). */
  private serving = false;
  /** Events sent while the request was being taken on. */
  private early: string[] | undefined;
  private answered = false;
  /** The client went away. */
  private gone = false;
  private keepAlive: ReturnType<typeof setInterval> | undefined;
  /** What waits for a reader that does not keep up (see outbox.ts); none until one does not. */
  private held: Outbox | undefined;
  /** The response, when it came while events were held: written, and the stream ended, after them. */
  private heldResponse: string | undefined;
  readonly networkTransport = 'tcp' as const;
  readonly network: TransportNetwork | undefined = undefined;

  private readonly exchange: HttpExchange;
  private readonly caller: Caller;

  constructor(
    private readonly options: ModernPostOptions,
    post: { exchange: HttpExchange; caller: Caller },
    private readonly request: JsonRpcRequest,
  ) {
    this.exchange = post.exchange;
    this.caller = post.caller;
    this.incoming = new IncomingRequest(request, post.caller, undefined);
  }

  get identity(): Identity | undefined {
    return this.caller.identity;
  }

  get clientAddress(): string | undefined {
    return this.caller.clientAddress;
  }

  answer(): HttpReply | Promise<HttpReply> {
    let outcome: StatelessOutcome;
    this.serving = true;
    try {
      outcome = this.options.endpoint.serve(this.request, this.incoming, this);
    } catch (error) {
      return this.answeredNow(this.failure(error), { error });
    } finally {
      this.serving = false;
    }
    if (!(outcome instanceof Promise) && !(outcome instanceof Deferred))
      return this.answeredNow(this.success(outcome), { result: outcome });
    return new Promise<HttpReply>((resolve) => {
      // A client gone is a cancellation, whether or not its stream was opened yet (an adapter may
      // tell it only through the request, not by cancelling the stream).
      this.stopWatching = this.exchange.onDisconnect?.(() => this.cancel());
      if (this.early !== undefined) {
        // Something was sent while the request was being taken on: a stream from the start.
        resolve(this.openStream());
      } else this.settle = resolve;
      const done = (result: JsonObject) => this.finish(this.success(result), { result });
      // Once the client left, how the request ended is nobody's business: not reported.
      const failed = (error: unknown) =>
        this.finish(
          this.gone ? errorReply(this.request.id, toRpcError(error)) : this.failure(error),
          { error },
        );
      if (outcome instanceof Deferred) outcome.settleTo(done, failed);
      else outcome.then(done, failed);
    });
  }

  /** A request answered while it was being taken on: JSON, or a stream of what it sent first. */
  private answeredNow(reply: HttpReply, outcome: Outcome): HttpReply {
    if (this.early === undefined) return reply;
    const stream = this.openStream();
    this.finish(reply, outcome);
    return stream;
  }

  /** The reply as an SSE stream, starting with what was sent before it opened. */
  private openStream(): HttpReply {
    const stream = (this.stream = new SseChannel());
    stream.oncancel = () => this.cancel();
    stream.ondrain = () => this.flushHeld(stream);
    // A long-lived stream (a subscriptions/listen) stays open through proxies that drop idle ones;
    // a congested one is not idle.
    this.keepAlive = setInterval(() => {
      if (this.held === undefined) this.write(stream, KEEP_ALIVE);
    }, KEEP_ALIVE_MS);
    (this.keepAlive as { unref?: () => void }).unref?.();
    for (const event of this.early ?? []) stream.write(event);
    this.early = undefined;
    return { status: 200, headers: SSE_HEADERS, sse: stream };
  }

  private success(result: JsonObject): HttpReply {
    const body = encodeMessage({ jsonrpc: '2.0', id: this.request.id, result });
    return { status: 200, headers: JSON_HEADERS, body };
  }

  private failure(error: unknown): HttpReply {
    const wire = toRpcError(error);
    if (wire.cause !== undefined) this.options.report(wire.cause);
    return errorReply(this.request.id, wire);
  }

  /** The response: as JSON when nothing was sent before it, else as the stream's last event. */
  private finish(reply: HttpReply, outcome: Outcome): void {
    this.stopWatching?.();
    this.stopWatching = undefined;
    this.answered = true;
    const stream = this.stream;
    if (stream === undefined) {
      this.settle?.(reply);
      this.settle = undefined;
      return;
    }
    const message: JsonRpcMessage =
      'result' in outcome
        ? { jsonrpc: '2.0', id: this.request.id, result: outcome.result }
        : { jsonrpc: '2.0', id: this.request.id, error: toRpcError(outcome.error).toJSON() };
    if (this.held !== undefined) {
      // After what is held (and the notice of dropped log messages, which the outbox writes
      // last): a request's notifications come before its response.
      this.heldResponse = eventOf(message);
      clearInterval(this.keepAlive);
      return;
    }
    stream.write(eventOf(message));
    this.endStream(stream);
  }

  /** Writes to the stream; from the first write the connection cannot take, events are held. */
  private write(stream: SseChannel, text: string): void {
    if (!stream.write(text) && !stream.done) this.held ??= new Outbox();
  }

  /** The connection drained: what was held is written, as far as it takes it. */
  private flushHeld(stream: SseChannel): void {
    const held = this.held;
    if (held === undefined || !held.flush((message) => stream.write(eventOf(message)))) return;
    this.held = undefined;
    if (this.heldResponse === undefined) return;
    stream.write(this.heldResponse);
    this.endStream(stream);
  }

  private endStream(stream: SseChannel): void {
    clearInterval(this.keepAlive);
    stream.close();
  }

  /** A notification related to the request: the reply becomes a stream, if it is not one yet. */
  notify(method: string, params: JsonObject, _relatedRequestId: RequestId): void {
    if (this.answered) return;
    const message: JsonRpcMessage = { jsonrpc: '2.0', method, params };
    if (this.stream === undefined && this.serving) {
      (this.early ??= []).push(eventOf(message));
      return;
    }
    if (this.stream === undefined) {
      const settle = this.settle;
      this.settle = undefined;
      settle?.(this.openStream());
    }
    const stream = this.stream;
    if (stream === undefined) return;
    if (this.held === undefined) this.write(stream, eventOf(message));
    else this.held.hold(message);
  }

  /** The client went away: the request is cancelled (2026-07-28), and nothing more is sent. */
  private cancel(): void {
    if (this.gone) return;
    this.gone = true;
    this.incoming.cancel(new Error('The client closed the request'));
    if (this.stream) this.endStream(this.stream);
  }
}

/**
 * @module Running the web-standard handler on Node's `http` server: convert `IncomingMessage` to a
 * `Request` and write the `Response` back, with backpressure, and cancel the response stream when
 * the client goes away (so an SSE stream detaches instead of buffering forever). Timeouts are set
 * explicitly, never 0 (RELIABILITY.md).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { isUtf8 } from 'node:buffer';
import type { BodyResult } from '../../shared/body.js';
import { SSE_BACKLOG_BYTES, type HttpExchange, type HttpReply } from '../exchange.js';
import { bodyStream, endLingering, replyHeaders, stopReading } from './lingeringClose.js';

/** A web-standard request handler. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** A handler with the exchange core (StreamableHttpHandler): served without web streams. */
export interface ExchangeHandler {
  handle(exchange: HttpExchange, urlHost?: string): Promise<HttpReply>;
  /** The path of its MCP endpoint (`/mcp`), which {@link HttpListener.url} names. */
  readonly endpointPath?: string;
  /** Told the address the server listens on (it may warn about an exposed one). */
  noteListening?(host: string): void;
  /** Told of a fault the adapter met answering a request (a reply Node refused to write). */
  report?(error: unknown): void;
}

/**
 * The headers of a Node request from `rawHeaders`, every line kept: `req.headers` keeps only the
 * first of some repeated headers (Host among them), and a second Host must reach the handler to
 * be refused.
 */
function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2)
    headers.append(raw[i] as string, raw[i + 1] as string);
  return headers;
}

/**
 * Builds the `Request` of an incoming Node request (for plain fetch handlers). Cancelling its body
 * (a handler refusing a body over its limit) stops reading without destroying the connection,
 * so that the response written with {@link writeResponse} reaches the client.
 */
export function toRequest(req: IncomingMessage): Request {
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  // The path comes from the request line; the Host header is checked by the handler, not trusted here.
  const url = new URL(req.url ?? '/', 'http://localhost');
  return new Request(url, {
    method,
    headers: headersOf(req),
    ...(hasBody ? { body: bodyStream(req), duplex: 'half' } : {}),
  });
}

/**
 * Reads a Node request body up to `limit` bytes; bytes are counted as they arrive. The listeners
 * stay on the request once it is read (it is done with; an `error` listener kept there is
 * harmless), which saves removing three per request. A body over the limit is not read further:
 * the reply ends the connection lingering (lingeringClose.ts).
 */
function readNodeBody(
  req: IncomingMessage,
  limit: number,
  contentLength: string | null,
): Promise<BodyResult> {
  const declared = Number(contentLength ?? NaN);
  if (declared > limit) {
    stopReading(req);
    return Promise.resolve({ ok: false, reason: 'too-large' });
  }
  return new Promise<BodyResult>((resolve) => {
    // Most bodies arrive in one chunk: an array is made only for a second.
    let first: Buffer | undefined;
    let more: Buffer[] | undefined;
    let total = 0;
    const onData = (chunk: Buffer): void => {
      total += chunk.length;
      if (total > limit) {
        req.off('data', onData);
        stopReading(req);
        resolve({ ok: false, reason: 'too-large' });
      } else if (first === undefined) first = chunk;
      else (more ??= [first]).push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => {
      if (total > limit) return;
      const bytes = more ? Buffer.concat(more, total) : (first ?? Buffer.alloc(0));
      const text = bytes.toString('utf8');
      // Invalid bytes decode to U+FFFD; only then is the strict check needed.
      resolve(
        text.includes('\uFFFD') && !isUtf8(bytes)
          ? { ok: false, reason: 'not-utf8' }
          : { ok: true, text },
      );
    });
    req.on('error', () => resolve({ ok: false, reason: 'aborted' }));
  });
}

/** Lower-cased headers from `rawHeaders`, every line kept (repeated ones joined by ", "). */
function headersFromRaw(raw: readonly string[]): Readonly<Record<string, unknown>> {
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = raw[i + 1] as string;
    const previous = headers[name];
    headers[name] = previous === undefined ? value : `${previous}, ${value}`;
  }
  return headers;
}

/**
 * The header table of a Node request. Node's server builds `req.headers` for every request
 * already, so it is used as it is when no header line is repeated. When one is, Node keeps only
 * the first of some (Host among them) and a second Host must reach the handler to be refused:
 * the table is then built from `rawHeaders`, every line kept.
 */
function headerTableOf(req: IncomingMessage): Readonly<Record<string, unknown>> {
  const built = req.headers;
  let names = 0;
  for (const _name in built) names++;
  return names * 2 === req.rawHeaders.length ? built : headersFromRaw(req.rawHeaders);
}

/** A value of a header table; `req.headers` holds `set-cookie` as an array. */
function headerValue(value: unknown): string | null {
  if (typeof value === 'string') return value;
  return Array.isArray(value) ? value.join(', ') : null;
}

/** The exchange of a Node request (and of its response, when given: disconnects are seen on it). */
export function exchangeOfNode(req: IncomingMessage, res?: ServerResponse): HttpExchange {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  let params: URLSearchParams | undefined;
  let headers: Readonly<Record<string, unknown>> | undefined;
  const header = (name: string): string | null =>
    headerValue((headers ??= headerTableOf(req))[name]);
  return {
    method: req.method ?? 'GET',
    pathname: q < 0 ? url : url.slice(0, q),
    clientAddress: req.socket.remoteAddress,
    peer: req.socket,
    httpVersion: req.httpVersion,
    connection: req.socket,
    query: (name) => (params ??= new URLSearchParams(q < 0 ? '' : url.slice(q + 1))).get(name),
    header,
    body: (limit) => readNodeBody(req, limit, header('content-length')),
    onDisconnect: res && ((listener) => onResponseClosed(res, listener)),
  };
}

/** Calls `listener` when `res` closes before it was finished (the client went away). */
function onResponseClosed(res: ServerResponse, listener: () => void): () => void {
  const closed = (): void => {
    if (!res.writableFinished) listener();
  };
  res.once('close', closed);
  return () => res.off('close', closed);
}

/**
 * Writes a reply: a text body in one write, or an SSE channel attached to the connection. A reply
 * to a request whose body was left unread closes its connection lingering.
 */
export function writeReply(reply: HttpReply, res: ServerResponse): void {
  const headers = replyHeaders(res.req, reply.headers);
  endLingering(res);
  if (!('sse' in reply)) {
    // A Content-Length (rather than chunked encoding) lets Node send head and body in one write.
    const length = reply.body === undefined ? 0 : Buffer.byteLength(reply.body);
    res.writeHead(reply.status, { ...headers, 'content-length': String(length) });
    res.end(reply.body);
    return;
  }
  res.writeHead(reply.status, headers);
  res.flushHeaders();
  const channel = reply.sse;
  let open = true;
  res.once('close', () => {
    if (!open) return;
    open = false;
    channel.cancel(); // the client went away: the stream detaches and can be resumed
  });
  // A congested connection is not written to past the backlog bound: its writer waits for the
  // drain, catching up from the event store (where progress is coalesced) instead.
  res.on('drain', () => channel.drain());
  channel.attach({
    write: (text) => {
      if (!open) return false;
      res.write(text);
      return res.writableLength < SSE_BACKLOG_BYTES;
    },
    close: () => {
      if (!open) return;
      open = false;
      res.end();
    },
  });
}

/**
 * Writes a web-standard `Response`, honouring backpressure; cancels the body if the client leaves.
 * A response to a request whose body was cancelled unread (see {@link toRequest}) closes its
 * connection lingering.
 */
export async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, replyHeaders(res.req, headers));
  const body = response.body;
  if (!body) {
    endLingering(res);
    res.end();
    return;
  }
  if (headers['content-type'] === 'text/event-stream') res.flushHeaders();
  const reader = body.getReader();
  const stop = (): void => void reader.cancel().catch(() => {});
  res.once('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const go = (): void => {
            res.off('drain', go);
            res.off('close', go);
            resolve();
          };
          res.once('drain', go);
          res.once('close', go);
        });
      }
    }
  } catch {
    // The client went away mid-stream; the body was cancelled.
  } finally {
    res.off('close', stop);
    endLingering(res);
    res.end();
  }
}

function isExchangeHandler(handler: ExchangeHandler | FetchHandler): handler is ExchangeHandler {
  return typeof (handler as ExchangeHandler).handle === 'function';
}

/** A Node `http` request listener: the fast path for an exchange handler, web streams otherwise. */
export function toNodeListener(
  handler: ExchangeHandler | FetchHandler,
): (req: IncomingMessage, res: ServerResponse) => void {
  const fail = (res: ServerResponse): void => {
    if (!res.headersSent) res.writeHead(500, replyHeaders(res.req, {}));
    endLingering(res);
    res.end();
  };
  if (isExchangeHandler(handler)) {
    const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
      let reply: HttpReply;
      try {
        reply = await handler.handle(exchangeOfNode(req, res));
      } catch {
        fail(res);
        return;
      }
      try {
        writeReply(reply, res);
      } catch (error) {
        // Node refuses some replies (a header value with a line break, say, from `authenticate`):
        // that request gets a 500, and the process keeps serving.
        const why = error instanceof Error ? error.message : String(error);
        handler.report?.(
          new Error(`A reply could not be written (${why}); answered 500 instead`, {
            cause: error,
          }),
        );
        fail(res);
      }
    };
    return (req, res) => void answer(req, res);
  }
  return (req, res) => {
    handler(toRequest(req))
      .then((response) => writeResponse(response, res))
      .catch(() => fail(res));
  };
}

/** Options of {@link serveHttp}. */
export interface ServeHttpOptions {
  /** Default 0 (any free port). */
  port?: number;
  /**
   * Default 127.0.0.1: a local server is not reachable from the network unless asked. Another
   * address, for a handler with neither `authenticate` nor `origins.allowedHosts`, is reported as
   * a warning through the handler's `onerror`.
   */
  host?: string;
  /** Time to receive the request headers. Default 30 s. */
  headersTimeoutMs?: number;
  /** Time to receive a whole request (not the response: SSE streams live longer). Default 60 s. */
  requestTimeoutMs?: number;
  /** Idle keep-alive connections close after this. Default 5 s. */
  keepAliveTimeoutMs?: number;
}

/** A listening server and how to stop it. */
export interface HttpListener {
  readonly server: Server;
  readonly port: number;
  /**
   * The endpoint to give clients: for an MCP handler (`createHttpHandler`), its MCP endpoint
   * (`http://127.0.0.1:3000/mcp`, its `path` option); for any other handler, the origin and `/`.
   */
  readonly url: string;
  /**
   * Scheme, host and port (`http://127.0.0.1:3000`), no path: the base of the handler's other
   * paths (`/sse`, `/.well-known/oauth-protected-resource`...).
   */
  readonly origin: string;
  /** Stops accepting connections and closes idle ones; open streams end when their sessions do. */
  close(): Promise<void>;
}

/** Serves `handler` (a StreamableHttpHandler, or any fetch handler) on Node's `http` server. */
export async function serveHttp(
  handler: ExchangeHandler | FetchHandler,
  options: ServeHttpOptions = {},
): Promise<HttpListener> {
  const server = createServer(
    {
      headersTimeout: options.headersTimeoutMs ?? 30_000,
      requestTimeout: options.requestTimeoutMs ?? 60_000,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 5_000,
    },
    toNodeListener(handler),
  );
  // Sockets and whether a response is in progress on them: close() ends every other one. (Node's
  // closeIdleConnections() leaves a socket that has not sent a request yet waiting for headers.)
  const busy = new Map<Socket, number>();
  server.on('connection', (socket: Socket) => {
    busy.set(socket, 0);
    socket.once('close', () => busy.delete(socket));
  });
  // One listener for every response (no closure per request): its request names the socket.
  const responseClosed = function (this: ServerResponse): void {
    // A response that closes after its socket went away (a client that left mid-stream) has no
    // socket to count down any more: the socket's own 'close' removed it.
    const socket = this.req.socket as Socket | null;
    if (socket === null || !busy.has(socket)) return;
    busy.set(socket, Math.max(0, (busy.get(socket) ?? 1) - 1));
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    res.on('close', responseClosed);
  });
  const endIdle = (): void => {
    for (const [socket, responses] of busy) if (responses === 0) socket.destroy();
  };
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  if (isExchangeHandler(handler)) handler.noteListening?.(host);
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const origin = `http://${shownHost}:${port}`;
  const path = (isExchangeHandler(handler) ? handler.endpointPath : undefined) ?? '/';
  return {
    server,
    port,
    url: `${origin}${path}`,
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        // A connection finishing a response becomes idle only afterwards: keep ending idle ones
        // until the server has closed (streams still open end when their sessions do).
        const sweep = setInterval(endIdle, 25);
        server.close(() => {
          clearInterval(sweep);
          resolve();
        });
        endIdle();
      }),
  };
}

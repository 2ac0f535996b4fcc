/**
 * @module Running the web-standard handler on Node's `http` server: convert `IncomingMessage` to a
 * `Request` and write the `Response` back, with backpressure, and cancel the response stream when
 * the client goes away (so an SSE stream detaches instead of buffering forever). Timeouts are set
 * explicitly, never 0 (RELIABILITY.md).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';

/** A web-standard request handler. */
export type FetchHandler = (request: Request) => Promise<Response>;

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  return headers;
}

/** Builds the `Request` of an incoming Node request; the body streams (it is never buffered here). */
export function toRequest(req: IncomingMessage): Request {
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  // The path comes from the request line; the Host header is checked by the handler, not trusted here.
  const url = new URL(req.url ?? '/', 'http://localhost');
  return new Request(url, {
    method,
    headers: headersOf(req),
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  });
}

/** Writes a `Response` to a Node response, honouring backpressure; cancels the body if the client leaves. */
export async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  const body = response.body;
  if (!body) {
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
    res.end();
  }
}

/** A Node `http` request listener that serves `handler`. */
export function toNodeListener(
  handler: FetchHandler,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handler(toRequest(req))
      .then((response) => writeResponse(response, res))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  };
}

/** Options of {@link serveHttp}. */
export interface ServeHttpOptions {
  /** Default 0 (any free port). */
  port?: number;
  /** Default 127.0.0.1: a local server is not reachable from the network unless asked. */
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
  readonly url: string;
  /** Stops accepting connections and closes idle ones; open streams end when their sessions do. */
  close(): Promise<void>;
}

/** Serves `handler` on Node's `http` server. */
export async function serveHttp(
  handler: FetchHandler,
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
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    res.once('close', () => busy.set(socket, Math.max(0, (busy.get(socket) ?? 1) - 1)));
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
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    server,
    port,
    url: `http://${shownHost}:${port}`,
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

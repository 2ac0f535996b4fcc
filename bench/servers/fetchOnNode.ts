/**
 * @module A web-standard fetch handler (`(Request) => Promise<Response>`, the face of the official
 * SDK v2's `createMcpHandler`) served on Node's `http` server, written here so that the SDK v2
 * server depends on nothing of toolwire's: the body is read whole, the `Request` gets a signal that
 * aborts when the client goes away, and the `Response` is written in one piece (JSON) or chunk by
 * chunk (an SSE stream, cancelled when the client goes away). Used by the SDK v2 benchmark server
 * and by the SDK v2 interoperability fixture (test/fixtures/sdkV2/sdkV2Server.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** A web-standard request handler. */
export type FetchHandler = (request: Request) => Promise<Response>;

function requestOf(req: IncomingMessage, body: Buffer, signal: AbortSignal): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2)
    headers.append(raw[i] as string, raw[i + 1] as string);
  const method = req.method ?? 'GET';
  return new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
    method,
    headers,
    signal,
    // A Buffer is a Uint8Array over an ArrayBuffer (Node's pool), which fetch takes as it is.
    ...(body.length > 0 && method !== 'GET' && method !== 'HEAD'
      ? { body: body as Uint8Array<ArrayBuffer> }
      : {}),
  });
}

async function writeBody(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  if (!response.body) {
    res.writeHead(response.status, headers).end();
    return;
  }
  if (!headers['content-type']?.startsWith('text/event-stream')) {
    const bytes = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, { ...headers, 'content-length': String(bytes.length) });
    res.end(bytes);
    return;
  }
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const reader = response.body.getReader();
  const stop = (): void => void reader.cancel().catch(() => {});
  res.once('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // The client went away: the stream was cancelled.
  } finally {
    res.off('close', stop);
    res.end();
  }
}

/** A Node `http` server (not yet listening) that answers every request with `handler`. */
export function serveFetch(handler: FetchHandler): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const controller = new AbortController();
      res.once('close', () => {
        if (!res.writableFinished) controller.abort();
      });
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      handler(requestOf(req, body, controller.signal))
        .then((response) => writeBody(response, res))
        .catch(() => {
          if (!res.headersSent) res.writeHead(500);
          res.end();
        });
    });
  });
}

/** Listens on 127.0.0.1 (a free port) and resolves with the MCP endpoint's URL (`/mcp`). */
export function listenLocal(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address && typeof address === 'object') resolve(`http://127.0.0.1:${address.port}/mcp`);
      else reject(new Error('no address'));
    });
  });
}

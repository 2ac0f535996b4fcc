/**
 * @module Web-standard `Request` in, `Response` out, for runtimes built on them (Deno, Bun,
 * workers, Hono...): the conversions to and from the core's exchange and reply.
 */
import { readBody } from '../../shared/body.js';
import { SSE_BACKLOG_BYTES, type HttpExchange, type HttpReply } from '../exchange.js';

const encoder = new TextEncoder();

/** The exchange of a web-standard request; `clientAddress` is what the runtime says of the peer. */
export function exchangeOf(
  request: Request,
  clientAddress?: string,
): HttpExchange & { readonly urlHost: string } {
  const url = new URL(request.url);
  return {
    method: request.method,
    pathname: url.pathname,
    clientAddress,
    peer: clientAddress === undefined ? undefined : { remoteAddress: clientAddress },
    urlHost: url.host,
    query: (name) => url.searchParams.get(name),
    header: (name) => request.headers.get(name),
    body: (limit) => readBody(request, limit),
    onDisconnect: (listener) => {
      const signal = request.signal;
      signal.addEventListener('abort', listener, { once: true });
      return () => signal.removeEventListener('abort', listener);
    },
  };
}

/** The web-standard response of a reply; an SSE channel becomes a streaming body. */
export function responseOf(reply: HttpReply): Response {
  if (!('sse' in reply))
    return new Response(reply.body ?? null, { status: reply.status, headers: reply.headers });
  const channel = reply.sse;
  // The body's queue counts bytes: past SSE_BACKLOG_BYTES unread, the writer stops until the
  // runtime pulls again (the reader caught up), and catches up from the event store then.
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        channel.attach({
          write: (text) => {
            try {
              controller.enqueue(encoder.encode(text));
            } catch {
              return false;
            }
            return (controller.desiredSize ?? 0) > 0;
          },
          close: () => {
            try {
              controller.close();
            } catch {
              // Already closed or cancelled.
            }
          },
        });
      },
      // Called after each read; the writer resumes once half the bound is free (not per chunk).
      pull: (controller) => {
        if ((controller.desiredSize ?? 0) >= SSE_BACKLOG_BYTES / 2) channel.drain();
      },
      cancel: () => channel.cancel(),
    },
    new ByteLengthQueuingStrategy({ highWaterMark: SSE_BACKLOG_BYTES }),
  );
  return new Response(body, { status: reply.status, headers: reply.headers });
}

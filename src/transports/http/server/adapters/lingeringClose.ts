/**
 * @module Closing a Node connection whose request body was left unread (refused at the size
 * limit) without losing the reply: the reply is written with `Connection: close`, the sending side
 * is shut (FIN), and what the client still sends is read and thrown away until it stops, for a
 * bounded time and amount, before the socket is destroyed (a lingering close, as nginx and Apache
 * do). Destroying it at once, with the rest of the body in the kernel's receive buffer, sends a
 * TCP reset, and a client still sending its body often loses the reply with it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** The longest a connection lingers after its reply. */
export const LINGER_MS = 5_000;
/** The most a lingering connection reads (and throws away) before it is destroyed. */
export const LINGER_BYTES: number = 16 * 1024 * 1024;

/** Requests whose body was left unread: reading stopped at the limit, or the body was cancelled. */
const unread = new WeakSet<IncomingMessage>();
/** Requests whose response is set to end lingering. */
const lingering = new WeakSet<IncomingMessage>();

/** Stops reading a request's body (the kernel's flow control holds the client back meanwhile). */
export function stopReading(req: IncomingMessage): void {
  req.pause();
  unread.add(req);
}

/** True when the response to `req` must end its connection lingering. */
function leftUnread(req: IncomingMessage): boolean {
  return unread.has(req) && !req.complete;
}

/**
 * The headers of a reply to `req`: with `Connection: close` when its body was left unread (the
 * connection cannot carry another request).
 */
export function replyHeaders<T extends Readonly<Record<string, string>>>(
  req: IncomingMessage,
  headers: T,
): T | (T & { connection: string }) {
  return leftUnread(req) ? { ...headers, connection: 'close' } : headers;
}

/**
 * Reads and throws away what the client still sends, then destroys the socket: when the body has
 * been read to its end, the client has shut its side, {@link LINGER_BYTES} were read, or after
 * {@link LINGER_MS}. The reply and the FIN are sent first.
 */
function linger(socket: Socket, req: IncomingMessage): void {
  if (socket.destroyed) return;
  if (socket.writable) socket.end();
  let read = 0;
  let closing = false;
  const close = (): void => {
    if (closing) return;
    closing = true;
    // Destroyed only once the reply and the FIN have left (or when the time is up).
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
  };
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', close);
  req.once('end', close);
  req.once('error', close);
  // The HTTP parser keeps reading the socket while the request flows: the body is dropped here.
  req.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > LINGER_BYTES) close();
  });
  if (req.readableEnded) close();
  else req.resume();
}

/**
 * Makes the end of `res` a lingering close when its request's body was left unread. Call it
 * before the response is ended. Node destroys a connection whose last response has been written
 * (`socket.destroySoon()`); for this socket that becomes {@link linger}. A response that was not
 * the last (its headers were sent before the body was given up) lingers once it has finished.
 */
export function endLingering(res: ServerResponse): void {
  const req = res.req;
  if (!leftUnread(req) || lingering.has(req)) return;
  lingering.add(req);
  const socket = req.socket;
  let started = false;
  const start = (): void => {
    if (started) return;
    started = true;
    linger(socket, req);
  };
  socket.destroySoon = start;
  // Node's own 'finish' listener (which calls destroySoon for a last response) runs first.
  res.once('finish', start);
}

/**
 * The body of a Node request as a web stream that, unlike `Readable.toWeb`, does not destroy the
 * connection when it is cancelled (a handler refusing a body over its limit): reading stops and
 * the response ends the connection lingering ({@link endLingering}).
 */
export function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let done = false;
  const onData = (chunk: Buffer): void => {
    if (done) return;
    // A copy: the chunk may be a view of a buffer Node reuses.
    controller.enqueue(new Uint8Array(chunk));
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  };
  const finish = (error?: unknown): void => {
    if (done) return;
    done = true;
    req.off('data', onData);
    if (error === undefined) controller.close();
    else controller.error(error);
  };
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        req.pause();
        req.on('data', onData);
        req.once('end', () => finish());
        req.once('error', (error) => finish(error));
        req.once('close', () => {
          if (!req.complete) finish(new Error('The client went away before its body ended'));
        });
      },
      pull() {
        req.resume();
      },
      cancel() {
        done = true;
        req.off('data', onData);
        stopReading(req);
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );
}

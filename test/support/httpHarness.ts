/**
 * @module Drives a Streamable HTTP handler with web-standard Requests (no sockets): builds requests
 * the way a client would, and reads SSE responses event by event.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { StreamableHttpHandler } from '../../src/http.js';

export const BASE = 'http://127.0.0.1:3000';
export const ACCEPT_BOTH = 'application/json, text/event-stream';

/** Headers a well-behaved client sends on a POST. */
export function postHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return {
    host: '127.0.0.1:3000',
    accept: ACCEPT_BOTH,
    'content-type': 'application/json',
    ...extra,
  };
}

export function initializeMessage(
  id: number | string = 1,
  version = '2025-11-25',
): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion: version,
      capabilities: {},
      clientInfo: { name: 'http-test', version: '1' },
    },
  };
}

export async function post(
  handler: StreamableHttpHandler,
  body: unknown,
  headers: Record<string, string> = {},
  path = '/mcp',
): Promise<Response> {
  return handler.fetch(
    new Request(`${BASE}${path}`, {
      method: 'POST',
      headers: postHeaders(headers),
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

/** A GET on the MCP endpoint (the standalone stream, or a resumption with `last-event-id`). */
export function getStream(
  handler: StreamableHttpHandler,
  headers: Record<string, string> = {},
  path = '/mcp',
): Promise<Response> {
  return handler.fetch(
    new Request(`${BASE}${path}`, {
      headers: { host: '127.0.0.1:3000', accept: 'text/event-stream', ...headers },
    }),
  );
}

/** Initializes a session and sends `notifications/initialized`; returns the session id. */
export async function openSession(
  handler: StreamableHttpHandler,
  version = '2025-11-25',
  headers: Record<string, string> = {},
): Promise<string> {
  const response = await post(handler, initializeMessage(1, version), headers);
  if (response.status !== 200)
    throw new Error(`initialize failed: ${response.status} ${await response.text()}`);
  await response.text();
  const session = response.headers.get('mcp-session-id');
  if (!session) throw new Error('no session id');
  const ack = await post(
    handler,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { 'mcp-session-id': session, ...headers },
  );
  if (ack.status !== 202) throw new Error(`initialized got ${ack.status}`);
  return session;
}

/** Reads SSE events from a response as they arrive. */
export class EventReader {
  private readonly events: EventSourceMessage[] = [];
  private waiters: Array<() => void> = [];
  retry: number | undefined;
  ended = false;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(response: Response) {
    if (!response.body) throw new Error('no body');
    const reader = response.body.getReader();
    this.reader = reader;
    const parser = createParser({
      onEvent: (e) => this.push(e),
      onRetry: (ms) => (this.retry = ms),
    });
    const decoder = new TextDecoder();
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.feed(decoder.decode(value, { stream: true }));
        }
      } catch {
        // cancelled
      }
      this.ended = true;
      this.wake();
    })();
  }

  private push(event: EventSourceMessage): void {
    this.events.push(event);
    this.wake();
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** The next event, waiting up to `ms`. */
  async next(ms = 2000): Promise<EventSourceMessage> {
    const deadline = Date.now() + ms;
    while (this.events.length === 0) {
      if (this.ended) throw new Error('stream ended');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no event in time');
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.events.shift() as EventSourceMessage;
  }

  /** The next event's data parsed as JSON (skipping priming events). */
  async nextMessage(
    ms = 2000,
  ): Promise<Record<string, unknown> & { id?: unknown; method?: string }> {
    for (;;) {
      const event = await this.next(ms);
      if (event.data.trim() !== '') return JSON.parse(event.data) as Record<string, unknown>;
    }
  }

  /** Closes the stream from the client's side (as a client that leaves does). */
  async cancel(): Promise<void> {
    await this.reader.cancel();
  }

  /** Waits for the stream to end. */
  async end(ms = 2000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!this.ended && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    if (!this.ended) throw new Error('stream did not end');
  }

  /** Drops the connection, as a client that goes away. */
  async disconnect(): Promise<void> {
    await this.reader.cancel();
  }
}

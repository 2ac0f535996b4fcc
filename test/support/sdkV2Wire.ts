/**
 * @module What the interoperability tests with the official SDK v2 (`@modelcontextprotocol/client`
 * and `@modelcontextprotocol/server` 2.x) share: the fixture processes, a fetch that records every
 * HTTP exchange (request headers and body, the messages of the response), a tap on a stdio
 * transport, and the check of what toolwire sent against the official schema of the revision.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Revision } from '../../src/protocol/versions.js';
import { ROOT } from './paths.js';
import { validateMessage } from './specSchemas.js';

/** The SDK v2 server fixture: `node <it> http|stdio <mode>`. */
export const SDK_V2_SERVER = `${ROOT}build/test/fixtures/sdkV2/sdkV2Server.js`;
/** The toolwire server fixture for the SDK v2 client: `node <it> http|stdio`. */
export const TOOLWIRE_FOR_V2 = `${ROOT}build/test/fixtures/sdkV2/toolwireServer.js`;

/** A JSON-RPC message as a plain object. */
export type Message = Record<string, unknown>;

/** One HTTP exchange a {@link WireLog} saw. */
export interface Exchange {
  readonly method: string;
  /** The request's headers, lower-cased names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON-RPC message of the request body, if any. */
  readonly body: Message | undefined;
  /** The HTTP status; 0 until the response has come (or when it never did). */
  status: number;
  /** The JSON-RPC messages of the response (JSON, or the data of SSE events). */
  readonly received: Message[];
}

/** The JSON-RPC messages of a response body: one JSON object, or the data lines of SSE events. */
export function messagesOf(text: string): Message[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  if (trimmed.startsWith('{')) return [JSON.parse(trimmed) as Message];
  return trimmed
    .split('\n')
    .filter((line) => line.startsWith('data:') && line.slice(5).trim() !== '')
    .map((line) => JSON.parse(line.slice(5)) as Message);
}

/** Reads a response body beside its consumer, each complete SSE event (or the JSON) into `into`. */
async function readMessages(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  into: Message[],
): Promise<void> {
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      const end = text.lastIndexOf('\n\n');
      if (end >= 0 && !text.trimStart().startsWith('{')) {
        into.push(...messagesOf(text.slice(0, end)));
        text = text.slice(end + 2);
      }
    }
    into.push(...messagesOf(text));
  } catch {
    // Cancelled or aborted: what was complete is kept.
  }
}

/**
 * A fetch that records what passes through it. The body of each POST response is read from a
 * clone beside the caller, event by event; a GET (a 2025 standalone stream, open as long as its
 * session) is recorded without its body.
 */
export class WireLog {
  private readonly seen: Exchange[] = [];
  /** Exchanges whose fetch has not settled yet (no status, no failure). */
  private readonly unsettled = new Set<Exchange>();
  private readonly reading: Array<Promise<void>> = [];
  private readonly sending: Array<Promise<void>> = [];
  private readonly readers: Array<ReadableStreamDefaultReader<Uint8Array>> = [];

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const method = init?.method ?? 'GET';
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
    const text = typeof init?.body === 'string' ? init.body : undefined;
    const body = text === undefined ? undefined : (JSON.parse(text) as Message);
    const received: Message[] = [];
    // Recorded before the answer comes: a POST whose 202 arrives after the client has its result
    // (the answer to a server's request, sent as the call ends) is still in the log.
    const exchange: Exchange = { method, headers, body, status: 0, received };
    this.seen.push(exchange);
    this.unsettled.add(exchange);
    const sent = fetch(input, init);
    this.sending.push(
      sent.then(
        () => {},
        () => {
          this.unsettled.delete(exchange);
        },
      ),
    );
    const response = await sent;
    exchange.status = response.status;
    this.unsettled.delete(exchange);
    const copy = method === 'POST' ? response.clone().body : null;
    if (copy) {
      const reader = copy.getReader();
      this.readers.push(reader);
      this.reading.push(readMessages(reader, received));
    }
    return response;
  };

  /**
   * Every exchange so far, once the responses of its POSTs have been read to their end, or for
   * at most `graceMs` more: a clone whose original the client aborted mid-stream (a client that
   * closes once it has its answer) may never end, and is cancelled then.
   */
  async exchanges(graceMs = 250): Promise<Exchange[]> {
    let timer: NodeJS.Timeout | undefined;
    const within = (ms: number, work: Promise<unknown>) =>
      Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    // Every request's answer comes (a fetch settles), on a loaded machine late: waited for (up to
    // 10 s); then the bodies, of which an aborted one may never end, for `graceMs`.
    // A request sent while waiting (the answer to a server's request, as the call ends) is
    // waited for too: CI saw one recorded with no status yet.
    const deadline = Date.now() + 10_000;
    for (let waited = -1; waited !== this.sending.length && Date.now() < deadline;) {
      waited = this.sending.length;
      await within(deadline - Date.now(), Promise.all(this.sending));
      clearTimeout(timer);
      // One started just now may not be in `sending` yet: every recorded one has its status.
      while (this.unsettled.size > 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await within(graceMs, Promise.all(this.reading));
    clearTimeout(timer);
    // Not awaited: undici may never settle the cancel of such a branch either.
    for (const reader of this.readers) void reader.cancel().catch(() => {});
    return this.seen;
  }
}

/**
 * Taps a stdio client transport (either SDK's or toolwire's), leaving its class as it is (the SDK
 * v2 client probes a sibling process only for its own class): what it sends and what it receives
 * on this connection are recorded as they pass.
 */
export function tapTransport(transport: object): { sent: Message[]; received: Message[] } {
  const sent: Message[] = [];
  const received: Message[] = [];
  const target = transport as {
    send: (message: unknown, ...rest: unknown[]) => Promise<void>;
    onmessage?: (message: unknown, ...rest: unknown[]) => void;
  };
  const send = target.send.bind(target);
  target.send = (message, ...rest) => {
    sent.push(message as Message);
    return send(message, ...rest);
  };
  let handler: ((message: unknown, ...rest: unknown[]) => void) | undefined;
  Object.defineProperty(target, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => handler,
    set: (next?: (message: unknown, ...rest: unknown[]) => void) => {
      handler =
        next &&
        ((message, ...rest) => {
          received.push(message as Message);
          next(message, ...rest);
        });
    },
  });
  return { sent, received };
}

/**
 * The schema problems of the messages toolwire sent on a connection of `revision`, each message
 * with its problems; `requests` are the other side's requests (the responses answer them).
 */
export function wireProblems(
  revision: Revision,
  sentByToolwire: readonly Message[],
  requests: readonly (Message | undefined)[],
): string[] {
  const methods = new Map<string | number, string>();
  for (const request of requests) {
    if (request && typeof request['method'] === 'string' && 'id' in request)
      methods.set(request['id'] as string | number, request['method']);
  }
  return sentByToolwire.flatMap((message) =>
    validateMessage(revision, message, (id) => methods.get(id)).map(
      (problem) => `${problem} in ${JSON.stringify(message).slice(0, 300)}`,
    ),
  );
}

/** A fixture process and what it wrote to stderr. */
export interface FixtureProcess {
  readonly child: ChildProcess;
  /** The first line of its stdout (an HTTP fixture's URL). */
  readonly url: string;
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts `node <script> ...args` and waits (at most 15 s) for the first line of its stdout. */
export async function startFixture(
  script: string,
  args: readonly string[],
): Promise<FixtureProcess> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} printed nothing: ${stderr}`)),
      15_000,
    );
    child.stdout?.once('data', (chunk: Buffer) => {
      clearTimeout(timer);
      resolve(chunk.toString('utf8').trim());
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (${String(code)}): ${stderr}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { child, url, stderr: () => stderr, stop };
}

/**
 * @module The stdio server transport: newline-delimited messages on stdin/stdout. Only MCP
 * messages are written to stdout. When stdout cannot keep up, reading stdin pauses until it
 * drains and what is sent meanwhile waits in an {@link Outbox} (progress coalesced per token,
 * log messages bounded), so a slow reader bounds the server's memory instead of growing it.
 */
import type { Readable, Writable } from 'node:stream';
import { LocalError } from '../../jsonrpc/errors.js';
import type { MessageInfo, Transport } from '../../jsonrpc/transport.js';
import type { JsonRpcMessage } from '../../jsonrpc/types.js';
import { DEFAULT_MAX_DEPTH } from '../../jsonrpc/decode.js';
import { Outbox } from '../outbox.js';
import { decoderFor, DEFAULT_MAX_MESSAGE_BYTES, encodeLine } from './lineSink.js';

/** One settled promise for every accepted write (a send per message is the hot path). */
const SENT: Promise<void> = Promise.resolve();

/** Options of {@link StdioServerTransport}. */
export interface StdioServerOptions {
  /** Default `process.stdin`. */
  stdin?: Readable;
  /** Default `process.stdout`. */
  stdout?: Writable;
  /** Largest accepted message. Default 4 MiB. */
  maxMessageBytes?: number;
  /** Deepest accepted nesting. Default 64. */
  maxDepth?: number;
}

/** Serves MCP over this process's stdin and stdout. */
export class StdioServerTransport implements Transport {
  readonly networkTransport = 'pipe' as const;
  onmessage?: (message: unknown, info?: MessageInfo) => void;
  ondecodeerror?: Transport['ondecodeerror'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private readonly stdin: Readable;
  private readonly stdout: Writable;
  /** Bound before anyone can redirect `stdout.write` (see cli/stdoutGuard.ts). */
  private readonly write: (chunk: string) => boolean;
  private readonly decoder;
  private closed = false;
  private waitingForDrain = false;
  private drainWaiters: Array<() => void> = [];
  /** Messages waiting while stdout is full (progress coalesced, log messages bounded). */
  private readonly outbox = new Outbox();

  constructor(options: StdioServerOptions = {}) {
    this.stdin = options.stdin ?? process.stdin;
    this.stdout = options.stdout ?? process.stdout;
    this.write = this.stdout.write.bind(this.stdout) as (chunk: string) => boolean;
    this.decoder = decoderFor(
      this,
      options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      options.maxDepth ?? DEFAULT_MAX_DEPTH,
    );
  }

  private readonly onData = (chunk: Buffer | string): void => {
    this.decoder.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  };
  private readonly onEnd = (): void => {
    if (this.receivingPaused) {
      // Requests read before the end are still waiting to be handed over: close after them.
      this.endWhilePaused = true;
      this.decoder.end();
      return;
    }
    this.decoder.end();
    void this.close();
  };
  /** The connection asked to stop receiving: too many requests wait for a handler. */
  private receivingPaused = false;
  private endWhilePaused = false;
  private readonly onError = (error: Error): void => this.onerror?.(error);
  /**
   * Responses produced while one input is handled, joined into one string and written once, from
   * `process.nextTick`: Node runs it once the input's synchronous handling and the microtasks
   * queued meanwhile (async handlers that did no I/O) are done. One write per read chunk, as a
   * bare JSON-lines process would do (measured slightly cheaper than `setImmediate`, which waits
   * for the check phase).
   */
  private joined = '';
  private flushScheduled = false;
  private readonly flushJoined = (): void => {
    this.flushScheduled = false;
    const text = this.joined;
    if (text === '') return;
    this.joined = '';
    if (this.closed) return;
    if (!this.write(text)) this.congested();
  };
  private readonly onDrain = (): void => {
    if (this.closed) return;
    // What waited goes first; if stdout fills up again, the next drain carries on.
    if (!this.outbox.flush((message) => this.write(encodeLine(message)))) return;
    this.waitingForDrain = false;
    if (!this.receivingPaused) this.stdin.resume();
    for (const resolve of this.drainWaiters.splice(0)) resolve();
  };

  /** Stops reading stdin, and stops handing over what was read but not yet decoded. */
  pauseReceiving(): void {
    if (this.closed || this.receivingPaused) return;
    this.receivingPaused = true;
    this.stdin.pause();
    this.decoder.pause();
  }

  /** Hands over what was held back, then reads stdin again (unless stdout is still full). */
  resumeReceiving(): void {
    if (this.closed || !this.receivingPaused) return;
    this.receivingPaused = false;
    this.decoder.resume();
    if (this.receivingPaused) return; // paused again while handing over
    if (this.endWhilePaused) {
      void this.close();
      return;
    }
    if (!this.waitingForDrain) this.stdin.resume();
  }

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('error', this.onError);
    this.stdout.on('error', this.onError);
    this.stdout.on('drain', this.onDrain);
    this.stdin.resume();
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    if (this.closed) return Promise.reject(new LocalError('closed', 'stdio transport is closed'));
    if (this.waitingForDrain) {
      // stdout is full: the message waits in the outbox (bounded), not in the stream's buffer.
      // Held is accepted (or, for a log message beyond the bound, dropped): settled at once. A
      // promise per held message, settled at the drain, kept memory growing with every message
      // sent to a reader that stalls, though the outbox coalesces them (issue 19).
      this.outbox.hold(message);
      return SENT;
    }
    if (Array.isArray(message) || !('method' in message)) {
      this.joined += encodeLine(message);
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        process.nextTick(this.flushJoined);
      }
      return SENT;
    }
    // A notification or request goes out at once, after the responses joined before it, and is
    // never joined with what follows it: some clients (the official SDK) handle notifications a
    // microtask after responses, so a progress update sharing a read with its response would be
    // dropped.
    const text = this.joined === '' ? encodeLine(message) : this.joined + encodeLine(message);
    this.joined = '';
    if (this.write(text)) return SENT;
    // The one message that found stdout full settles at the drain: one per congestion, since
    // everything after it is held in the outbox until then.
    this.congested();
    return new Promise<void>((resolve) => this.drainWaiters.push(resolve));
  }

  /** stdout is full: stop taking new requests until it drains. */
  private congested(): void {
    if (this.waitingForDrain) return;
    this.waitingForDrain = true;
    this.stdin.pause();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Responses already joined still go out: they were accepted.
    if (this.joined !== '') {
      this.write(this.joined);
      this.joined = '';
    }
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('error', this.onError);
    this.stdout.off('drain', this.onDrain);
    this.stdout.off('error', this.onError);
    this.stdin.pause();
    for (const resolve of this.drainWaiters.splice(0)) resolve();
    this.onclose?.();
  }
}

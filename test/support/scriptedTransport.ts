/**
 * @module A transport driven by a test: inject raw text as if a peer had sent it, and read what
 * the code under test sent, in order.
 */
import { decodeMessage } from '../../src/jsonrpc/decode.js';
import type { SendOptions, Transport } from '../../src/jsonrpc/transport.js';
import type { JsonRpcMessage } from '../../src/jsonrpc/types.js';

export interface SentMessage {
  message: JsonRpcMessage | JsonRpcMessage[];
  options: SendOptions | undefined;
}

export class ScriptedTransport implements Transport {
  onmessage?: Transport['onmessage'];
  ondecodeerror?: Transport['ondecodeerror'];
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];

  readonly sent: SentMessage[] = [];
  closed = false;
  private waiters: Array<() => void> = [];
  private readIndex = 0;

  async start(): Promise<void> {}

  async send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): Promise<void> {
    if (this.closed) throw new Error('closed');
    // Round-trip through JSON so tests see what a peer would see.
    this.sent.push({ message: JSON.parse(JSON.stringify(message)) as JsonRpcMessage, options });
    for (const w of this.waiters.splice(0)) w();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  /** Delivers raw text as one incoming message. */
  injectText(text: string, maxDepth = 64): void {
    const decoded = decodeMessage(text, maxDepth);
    if (decoded.ok) this.onmessage?.(decoded.value);
    else this.ondecodeerror?.(decoded.error, decoded.hint);
  }

  /** Delivers a value as one incoming message (serialised first). */
  inject(value: unknown): void {
    this.injectText(JSON.stringify(value));
  }

  /** The next message sent after the previous `next()` call; waits for it up to `ms`. */
  async next(ms = 2000): Promise<JsonRpcMessage | JsonRpcMessage[]> {
    const deadline = Date.now() + ms;
    while (this.readIndex >= this.sent.length) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('No message was sent in time');
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    const item = this.sent[this.readIndex++];
    if (!item) throw new Error('unreachable');
    return item.message;
  }

  /** Asserts nothing more is sent within `ms`. Returns the extra messages, if any. */
  async quiet(ms = 50): Promise<Array<JsonRpcMessage | JsonRpcMessage[]>> {
    await new Promise((r) => setTimeout(r, ms));
    const extra = this.sent.slice(this.readIndex).map((s) => s.message);
    this.readIndex = this.sent.length;
    return extra;
  }
}

/** Resolves after `ms`. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * @module A linked pair of in-memory transports, for tests and for embedding a server in a host
 * process. Messages are serialised and decoded as on a real wire, so a test sees exactly what a
 * remote peer would: no shared object references, the same depth limit, the same decode errors.
 */
import { encodeMessage } from '../jsonrpc/rawJson.js';
import { decodeMessage } from '../jsonrpc/decode.js';
import { LocalError } from '../jsonrpc/errors.js';
import type { MessageInfo, Transport } from '../jsonrpc/transport.js';
import type { JsonRpcMessage } from '../jsonrpc/types.js';

/** Options of {@link createLinkedPair}. */
export interface LinkedPairOptions {
  /** Maximum nesting depth accepted on both ends. Default 64. */
  maxDepth?: number;
  /** Attached to every message the *second* transport receives (e.g. a server's caller identity). */
  infoForSecond?: MessageInfo;
}

/** One end of an in-memory pair. */
export class InMemoryTransport implements Transport {
  readonly networkTransport = 'inproc' as const;
  onmessage?: Transport['onmessage'];
  ondecodeerror?: Transport['ondecodeerror'];
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];

  private peer: InMemoryTransport | undefined;
  private closed = false;
  private started = false;
  private readonly backlog: string[] = [];

  /** @internal */
  constructor(
    private readonly maxDepth: number,
    private readonly info: MessageInfo | undefined,
  ) {}

  /** @internal */
  link(peer: InMemoryTransport): void {
    this.peer = peer;
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    for (const text of this.backlog.splice(0)) this.deliver(text);
  }

  async send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    const peer = this.peer;
    if (this.closed || !peer || peer.closed) throw new LocalError('closed', 'Transport is closed');
    const text = encodeMessage(message);
    queueMicrotask(() => peer.receive(text));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const peer = this.peer;
    this.onclose?.();
    if (peer && !peer.closed) void peer.close();
  }

  private receive(text: string): void {
    if (this.closed) return;
    if (this.started) this.deliver(text);
    else this.backlog.push(text);
  }

  private deliver(text: string): void {
    const decoded = decodeMessage(text, this.maxDepth);
    if (decoded.ok) this.onmessage?.(decoded.value, this.info);
    else this.ondecodeerror?.(decoded.error, decoded.hint);
  }
}

/** Creates two transports wired to each other: what one sends, the other receives. */
export function createLinkedPair(
  options: LinkedPairOptions = {},
): [InMemoryTransport, InMemoryTransport] {
  const depth = options.maxDepth ?? 64;
  const first = new InMemoryTransport(depth, undefined);
  const second = new InMemoryTransport(depth, options.infoForSecond);
  first.link(second);
  second.link(first);
  return [first, second];
}

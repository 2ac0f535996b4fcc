/**
 * @module Replays a corpus fixture against a fresh toolwire server over an in-memory pair: sends
 * what the fixture sends, and hands back what the server answered after each send, for the test
 * to compare (or, when the corpus is being recorded, to write down).
 */
import type { JsonRpcMessage } from '../../src/jsonrpc/types.js';
import type { Revision } from '../../src/protocol/versions.js';
import { createLinkedPair } from '../../src/transports/memory.js';
import { corpusServer } from './corpusServer.js';

/** How long a replay waits for a message the fixture expects. */
const WAIT_MS = 2_000;
/** How long a replay waits, after a notification, for messages it might provoke. */
const SETTLE_MS = 20;

/** A client end that queues what the server sends. */
export class ReplayClient {
  private readonly queue: Record<string, unknown>[] = [];
  private waiting: (() => void) | undefined;

  private constructor(private readonly send: (message: unknown) => Promise<void>) {}

  /** Connects to a new corpus server; opens the session at `revision` when `handshake`. */
  static async open(revision: Revision, handshake: boolean): Promise<ReplayClient> {
    const [clientEnd, serverEnd] = createLinkedPair();
    await corpusServer().connect(serverEnd);
    const client = new ReplayClient((message) => clientEnd.send(message as JsonRpcMessage));
    clientEnd.onmessage = (message) => client.arrived(message as Record<string, unknown>);
    await clientEnd.start();
    if (handshake) {
      const [opened] = await client.exchange({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: revision,
          capabilities: {},
          clientInfo: { name: 'corpus-replay', version: '1.0.0' },
        },
      });
      if (!opened || !('result' in opened))
        throw new Error(`no session: ${JSON.stringify(opened)}`);
      await client.exchange({ jsonrpc: '2.0', method: 'notifications/initialized' });
    }
    return client;
  }

  private arrived(message: Record<string, unknown>): void {
    this.queue.push(message);
    this.waiting?.();
  }

  /** The next message from the server, or undefined when none comes within `ms`. */
  async next(ms = WAIT_MS): Promise<Record<string, unknown> | undefined> {
    if (this.queue.length === 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        this.waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiting = undefined;
    }
    return this.queue.shift();
  }

  /** Sends `message` without waiting for anything. */
  async post(message: unknown): Promise<void> {
    await this.send(message);
  }

  /**
   * Sends `message` and returns what the server sends in answer: up to and including the
   * response to a request; what arrives within a short while after a notification.
   */
  async exchange(message: Record<string, unknown>): Promise<Record<string, unknown>[]> {
    await this.send(message);
    const answers: Record<string, unknown>[] = [];
    const id = message['id'];
    for (;;) {
      const answer = await this.next(id === undefined ? SETTLE_MS : WAIT_MS);
      if (!answer) return answers;
      answers.push(answer);
      if (id !== undefined && answer['id'] === id && !('method' in answer)) return answers;
    }
  }
}

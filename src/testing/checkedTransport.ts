/**
 * @module The client's end of an in-memory pair, with every message the server sends checked
 * against the revision's schema before the client sees it. A message that fails never reaches
 * the client: a response fails the request it answers with a {@link WireViolation}; anything
 * else (a notification, a request to the client) fails every request still waiting.
 */
import type {
  JsonRpcMessage,
  MessageInfo,
  Revision,
  RequestId,
  SendOptions,
  Transport,
} from '../index.js';
import type { RevisionCheck } from './eras/revisionChecks.js';
import { WireViolation } from './wireViolation.js';

/** What a {@link CheckedTransport} checks with, and whom it tells. */
export interface WireCheck {
  readonly revision: Revision;
  /** The revision's schema, and how each message is checked (eras/revisionChecks.ts). */
  readonly rules: RevisionCheck;
  /** Told of each violation, and whether a waiting request reported it. */
  readonly violated: (violation: WireViolation, reported: boolean) => void;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The id of a response (a message with `result` or `error`), if it is one. */
function responseId(message: unknown): RequestId | undefined {
  if (!isObject(message) || !('result' in message || 'error' in message)) return undefined;
  const id = message['id'];
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** A transport in front of `inner` that checks what it receives (see the module notes). */
export class CheckedTransport implements Transport {
  readonly networkTransport = 'inproc' as const;
  onmessage?: Transport['onmessage'];
  ondecodeerror?: Transport['ondecodeerror'];
  onfailure?: Transport['onfailure'];
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  /** The method of each request the client sent (a response may come after a cancel). */
  private readonly methods = new Map<RequestId, string>();
  /** The client's requests still waiting for their answer. */
  private readonly waiting = new Set<RequestId>();

  constructor(
    private readonly inner: Transport,
    private readonly check: WireCheck,
  ) {
    inner.onmessage = (message, info) => this.receive(message, info);
    inner.ondecodeerror = (error, hint) => this.ondecodeerror?.(error, hint);
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): Promise<void> {
    for (const m of Array.isArray(message) ? message : [message]) {
      if (!('method' in m)) continue;
      if ('id' in m) {
        this.methods.set(m.id, m.method);
        this.waiting.add(m.id);
      } else if (m.method === this.check.rules.schema.methodOf('CancelledNotification')) {
        // The caller gave up: a later answer, if any, is not awaited.
        const id = m.params?.['requestId'];
        if (typeof id === 'string' || typeof id === 'number') this.waiting.delete(id);
      }
    }
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private receive(message: unknown, info: MessageInfo | undefined): void {
    const { revision, rules } = this.check;
    const problems = rules.problems(message, (id) => this.methods.get(id));
    const answered = (Array.isArray(message) ? message : [message])
      .map(responseId)
      .filter((id): id is RequestId => id !== undefined && this.waiting.has(id));
    for (const id of answered) this.waiting.delete(id);
    if (problems.length === 0) {
      this.onmessage?.(message, info);
      return;
    }
    const violation = new WireViolation({ revision, sent: message, problems });
    // The request it answers fails with it; a message answering none fails all that wait.
    const failed = answered.length > 0 ? answered : [...this.waiting];
    for (const id of failed) this.waiting.delete(id);
    const onfailure = this.onfailure;
    this.check.violated(violation, failed.length > 0 && onfailure !== undefined);
    if (onfailure) for (const id of failed) onfailure(id, violation);
  }
}

/**
 * @module What the Streamable HTTP handler needs to know of a POST's body before delivering it:
 * one message or a batch, its request ids and whether it initializes a session, or why the
 * messages are refused as a whole (each one's own problems are the connection's to answer).
 */
import { INITIALIZE } from '../../../jsonrpc/methods.js';
import { classifyMessage, isRequestId, type Classified } from '../../../jsonrpc/guards.js';
import type { RequestId } from '../../../jsonrpc/types.js';

/** What the handler needs to know of a POST's messages. */
export interface CheckedPost {
  readonly messages: readonly unknown[];
  readonly batch: boolean;
  readonly initialize: boolean;
  /** The requests whose responses the POST awaits (its stream carries them). */
  readonly requestIds: readonly RequestId[];
  readonly classified: readonly Classified[];
}

/** A POST without requests awaits nothing (shared: never changed). */
const NO_REQUESTS: readonly RequestId[] = Object.freeze([]);

/**
 * A POST's messages (one, or a batch), or why they are refused as a whole. Linear in the size of
 * a batch (its ids are checked for repeats in a Set): a 4 MiB batch is checked before its session
 * is looked up, so anyone may send one. One message, the usual POST, gets arrays of its size.
 */
export function checkMessages(value: unknown): CheckedPost | string {
  if (!Array.isArray(value)) {
    const c = classifyMessage(value);
    const id = awaitedId(c);
    if (typeof id === 'object') return id.refused;
    const initialize = c.kind === 'request' && c.message.method === INITIALIZE;
    const requestIds = id === undefined ? NO_REQUESTS : [id];
    return { messages: [value], batch: false, initialize, requestIds, classified: [c] };
  }
  const messages: readonly unknown[] = value;
  if (messages.length === 0) return 'An empty batch is not a valid request';
  const requestIds: RequestId[] = [];
  const seen = new Set<RequestId>();
  const classified = new Array<Classified>(messages.length);
  let initialize = false;
  for (let i = 0; i < messages.length; i++) {
    const c = classifyMessage(messages[i]);
    classified[i] = c;
    const id = awaitedId(c);
    if (typeof id === 'object') return id.refused;
    if (id === undefined) continue;
    if (c.kind === 'request') {
      if (c.message.method === INITIALIZE) initialize = true;
      if (seen.has(id)) return `Request id ${JSON.stringify(id)} appears twice`;
    }
    seen.add(id);
    requestIds.push(id);
  }
  if (initialize) return 'initialize must not be part of a batch';
  return { messages, batch: true, initialize, requestIds, classified };
}

/**
 * The id whose response the POST awaits for one message: a request's, or that of an invalid
 * message whose error the connection can address. Undefined when none is due (notifications,
 * responses); a refusal when the error could only be addressed to null, which no POST's stream
 * could carry.
 */
function awaitedId(c: Classified): RequestId | undefined | { refused: string } {
  if (c.kind === 'request') return c.message.id;
  if (c.kind !== 'invalid') return undefined;
  if (c.id === null && !c.isResponse) return { refused: c.reason };
  return !c.isResponse && isRequestId(c.id) ? c.id : undefined;
}

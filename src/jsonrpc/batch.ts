/**
 * @module Collects the responses to the requests of one incoming batch and sends them together,
 * once every request has either answered or been cancelled (JSON-RPC 2.0 §6); and what is
 * refused of a batch as a whole.
 */
import { classifyMessage } from './guards.js';
import type { JsonRpcResponse } from './types.js';

/**
 * Why an incoming batch is refused as a whole (batches not allowed now, or an empty one), or
 * undefined when its messages are to be read one by one.
 */
export function batchRefusal(items: readonly unknown[], allowed: boolean): string | undefined {
  if (!allowed) return 'Batches are not supported on this connection';
  if (items.length === 0) return 'An empty batch is not a valid request';
  return undefined;
}

/** How many of a batch's messages get a response: its requests and its invalid non-responses. */
export function answeredIn(items: readonly unknown[]): number {
  let answered = 0;
  for (const item of items) {
    const c = classifyMessage(item);
    if (c.kind === 'request' || (c.kind === 'invalid' && !c.isResponse)) answered++;
  }
  return answered;
}

/** Gathers a batch's responses; `flush` runs once when the last one is in. */
export class BatchCollector {
  private readonly responses: JsonRpcResponse[] = [];
  private outstanding: number;

  constructor(
    expected: number,
    private readonly flush: (responses: JsonRpcResponse[]) => void,
  ) {
    this.outstanding = expected;
    if (expected === 0) flush([]);
  }

  /** Adds one response. */
  add(response: JsonRpcResponse): void {
    this.responses.push(response);
    this.settleOne();
  }

  /** Marks one request as settled without a response (it was cancelled). */
  skip(): void {
    this.settleOne();
  }

  private settleOne(): void {
    if (--this.outstanding === 0) this.flush(this.responses);
  }
}

/**
 * @module Collects the responses to the requests of one incoming batch and sends them together,
 * once every request has either answered or been cancelled (JSON-RPC 2.0 §6).
 */
import type { JsonRpcResponse } from './types.js';

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

/**
 * @module A result whose JSON text is already known. Serialising a large result that does not
 * change (a page of a thousand tool definitions) again for every request is most of the cost of
 * answering it; a {@link RawJson} carries the text made once, and encoders that know it splice
 * the text into the message instead of serialising the value. Anything else (`JSON.stringify`,
 * a structured clone) sees the value itself through `toJSON`, so a RawJson is always safe to send.
 */

/** A JSON value together with its serialisation. */
export class RawJson<T = unknown> {
  constructor(
    readonly value: T,
    readonly json: string = JSON.stringify(value),
  ) {}

  /** What `JSON.stringify` serialises in its place: the value. */
  toJSON(): T {
    return this.value;
  }
}

/**
 * The JSON text of a message, splicing in a result's known serialisation. The same text as
 * `JSON.stringify(message)` gives.
 */
export function encodeMessage(message: unknown): string {
  if (typeof message === 'object' && message !== null && !Array.isArray(message)) {
    const m = message as { jsonrpc?: unknown; id?: unknown; result?: unknown };
    if (m.result instanceof RawJson && Object.keys(m).length === 3)
      return `{"jsonrpc":"2.0","id":${JSON.stringify(m.id)},"result":${m.result.json}}`;
  }
  return JSON.stringify(message);
}

/**
 * @module Newline framing for stdio, as a pure class: bytes in, one callback per line out. A line
 * longer than the limit is discarded up to its newline with one report, keeping only its first
 * bytes (for the envelope hint), so memory stays bounded whatever the peer sends. Splitting on the
 * 0x0A byte is safe in UTF-8: no multi-byte sequence contains it.
 */

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const HEAD_BYTES = 512;

/** Callbacks of a {@link LineDecoder}. */
export interface LineSink {
  /** One complete line, decoded, without its line ending. Empty lines are skipped. */
  line(text: string): void;
  /** A line exceeded the limit; `head` is its decoded beginning. Reported once per line. */
  oversized(head: string, limit: number): void;
  /** A line was not valid UTF-8. */
  invalidUtf8(): void;
}

/**
 * Decodes `bytes[start, end)` as UTF-8; undefined when they are not valid UTF-8. Node transports
 * pass a Buffer-based one (faster than TextDecoder, and no subarray per line).
 */
export type Utf8Decode = (bytes: Uint8Array, start: number, end: number) => string | undefined;

const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/** The portable decoder: TextDecoder in fatal mode. */
export const decodeUtf8Strict: Utf8Decode = (bytes, start, end) => {
  try {
    return strictDecoder.decode(bytes.subarray(start, end));
  } catch {
    return undefined;
  }
};

/** Splits a byte stream into lines. */
export class LineDecoder {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private discarding = false;
  private readonly lenient = new TextDecoder('utf-8');
  /** While paused, bytes not yet split into lines wait here (at most what was read before). */
  private held: Uint8Array[] = [];
  private paused = false;
  private endHeld = false;

  constructor(
    private readonly sink: LineSink,
    private readonly maxLineBytes: number,
    private readonly decode: Utf8Decode = decodeUtf8Strict,
  ) {}

  /**
   * Stops emitting lines, even in the middle of a chunk: the rest of it, and any chunk pushed
   * meanwhile, waits for {@link resume}. The reader's source should be paused too, so what waits
   * is bounded by what had been read already.
   */
  pause(): void {
    this.paused = true;
  }

  /** Emits the lines held back, then carries on (it may pause again while doing so). */
  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    while (!this.paused) {
      const chunk = this.held.shift();
      if (chunk === undefined) break;
      this.split(chunk);
    }
    if (!this.paused && this.endHeld) {
      this.endHeld = false;
      this.end();
    }
  }

  /** Feeds one chunk. */
  push(chunk: Uint8Array): void {
    if (this.paused) {
      // Copy: the caller may reuse its buffer.
      this.held.push(chunk.slice());
      return;
    }
    this.split(chunk);
  }

  private split(chunk: Uint8Array): void {
    let start = 0;
    for (;;) {
      if (this.paused) {
        if (start < chunk.length) this.held.unshift(chunk.slice(start));
        return;
      }
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl < 0) {
        this.keep(chunk.subarray(start));
        return;
      }
      if (this.discarding) {
        this.discarding = false;
      } else if (this.pendingBytes + (nl - start) > this.maxLineBytes) {
        this.reportOversized(chunk.subarray(start, nl));
      } else if (this.pendingBytes === 0) {
        this.emit(chunk, start, nl);
      } else {
        this.pending.push(chunk.subarray(start, nl));
        const line = this.takePending();
        this.emit(line, 0, line.length);
      }
      this.pending = [];
      this.pendingBytes = 0;
      start = nl + 1;
    }
  }

  /** The stream ended: a last line without a newline still counts (once resumed, if paused). */
  end(): void {
    if (this.paused) {
      this.endHeld = true;
      return;
    }
    if (!this.discarding && this.pendingBytes > 0) {
      const line = this.takePending();
      this.emit(line, 0, line.length);
    }
    this.pending = [];
    this.pendingBytes = 0;
    this.discarding = false;
  }

  private keep(rest: Uint8Array): void {
    if (this.discarding || rest.length === 0) return;
    if (this.pendingBytes + rest.length > this.maxLineBytes) {
      this.reportOversized(rest);
      this.pending = [];
      this.pendingBytes = 0;
      this.discarding = true;
      return;
    }
    // Copy: the caller may reuse its buffer.
    this.pending.push(rest.slice());
    this.pendingBytes += rest.length;
  }

  private reportOversized(tail: Uint8Array): void {
    const parts = [...this.pending, tail];
    const head = new Uint8Array(HEAD_BYTES);
    let filled = 0;
    for (const part of parts) {
      if (filled >= HEAD_BYTES) break;
      const take = part.subarray(0, HEAD_BYTES - filled);
      head.set(take, filled);
      filled += take.length;
    }
    this.sink.oversized(this.lenient.decode(head.subarray(0, filled)), this.maxLineBytes);
  }

  private takePending(): Uint8Array {
    if (this.pending.length === 1) return this.pending[0] as Uint8Array;
    const out = new Uint8Array(this.pending.reduce((n, p) => n + p.length, 0));
    let offset = 0;
    for (const part of this.pending) {
      out.set(part, offset);
      offset += part.length;
    }
    return out;
  }

  private emit(bytes: Uint8Array, start: number, stop: number): void {
    let end = stop;
    if (end > start && bytes[end - 1] === CARRIAGE_RETURN) end--;
    if (end === start) return;
    const text = this.decode(bytes, start, end);
    if (text === undefined) {
      this.sink.invalidUtf8();
      return;
    }
    if (text.charCodeAt(0) <= 32 && text.trim() === '') return;
    this.sink.line(text);
  }
}

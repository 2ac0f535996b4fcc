/**
 * @module The last lines a child process wrote to stderr, kept in bounded memory so an error can
 * quote them when the process dies (a server's stderr is where it says why).
 */
import { StringDecoder } from 'node:string_decoder';

/** Bounds of a {@link StderrTail}. */
export interface StderrTailLimits {
  /** Most lines kept. Default 20. */
  lines?: number;
  /** Most characters kept. Default 4096. */
  chars?: number;
}

/** Keeps the end of a byte stream as text: at most `lines` lines and `chars` characters. */
export class StderrTail {
  private readonly decoder = new StringDecoder('utf8');
  private text = '';
  private readonly maxLines: number;
  private readonly maxChars: number;

  constructor(limits: StderrTailLimits = {}) {
    this.maxLines = limits.lines ?? 20;
    this.maxChars = limits.chars ?? 4096;
  }

  /** Adds a chunk; memory stays bounded by twice the character limit. */
  push(chunk: Buffer | string): void {
    this.text += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    if (this.text.length > 2 * this.maxChars) this.text = this.text.slice(-this.maxChars);
  }

  /** The kept tail, without a trailing newline; empty when nothing was written. */
  get value(): string {
    let text = this.text.slice(-this.maxChars).replace(/\n+$/, '');
    const lines = text.split('\n');
    if (lines.length > this.maxLines) text = lines.slice(-this.maxLines).join('\n');
    return text;
  }
}

import { describe, expect, it } from 'vitest';
import { LineDecoder } from './lineDecoder.js';

function collect(max = 1024) {
  const out: string[] = [];
  const decoder = new LineDecoder(
    {
      line: (t) => out.push(`line:${t}`),
      oversized: (head, limit) => out.push(`oversized:${limit}:${head.slice(0, 20)}`),
      invalidUtf8: () => out.push('invalid-utf8'),
    },
    max,
  );
  return { out, decoder };
}

const bytes = (s: string) => new TextEncoder().encode(s);

describe('LineDecoder', () => {
  it('decodes several messages in one chunk, CRLF endings, and skips blank lines', () => {
    const { out, decoder } = collect();
    decoder.push(bytes('{"a":1}\r\n\n  \n{"b":2}\n'));
    expect(out).toEqual(['line:{"a":1}', 'line:{"b":2}']);
  });

  it('joins one message split across many chunks, including inside a multi-byte character', () => {
    const { out, decoder } = collect();
    const whole = bytes('{"city":"Zürich 🌍"}\n');
    for (const b of whole) decoder.push(new Uint8Array([b]));
    expect(out).toEqual(['line:{"city":"Zürich 🌍"}']);
  });

  it('reports invalid UTF-8 once and decodes the next line', () => {
    const { out, decoder } = collect();
    decoder.push(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d, 0x0a]));
    decoder.push(bytes('{"ok":true}\n'));
    expect(out).toEqual(['invalid-utf8', 'line:{"ok":true}']);
  });

  it('discards an oversized line up to its newline with one report, keeping memory bounded', () => {
    const { out, decoder } = collect(64);
    decoder.push(bytes('{"jsonrpc":"2.0","id":7,"method":"x","params":{"pad":"'));
    for (let i = 0; i < 1000; i++) decoder.push(bytes('y'.repeat(100)));
    expect((decoder as unknown as { pendingBytes: number }).pendingBytes).toBe(0);
    decoder.push(bytes('"}}\n{"next":1}\n'));
    expect(out).toEqual(['oversized:64:{"jsonrpc":"2.0","id', 'line:{"next":1}']);
  });

  it('treats a single chunk holding an oversized line the same way', () => {
    const { out, decoder } = collect(16);
    decoder.push(bytes(`{"x":"${'z'.repeat(40)}"}\n{"y":2}\n`));
    expect(out).toEqual(['oversized:16:{"x":"zzzzzzzzzzzzzz', 'line:{"y":2}']);
  });

  it('emits a last line that has no newline when the stream ends', () => {
    const { out, decoder } = collect();
    decoder.push(bytes('{"a":1}\n{"b"'));
    decoder.push(bytes(':2}'));
    decoder.end();
    expect(out).toEqual(['line:{"a":1}', 'line:{"b":2}']);
  });

  it("does not keep a reference to the caller's buffer", () => {
    const { out, decoder } = collect();
    const buffer = bytes('{"a":');
    decoder.push(buffer);
    buffer.fill(0x20);
    decoder.push(bytes('1}\n'));
    expect(out).toEqual(['line:{"a":1}']);
  });

  it('pauses mid-chunk, holds what follows (also a partial line and the end), and resumes in order', () => {
    const out: string[] = [];
    const decoder: LineDecoder = new LineDecoder(
      {
        line: (t) => {
          out.push(t);
          if (t === '{"n":2}') decoder.pause(); // as a full queue would, while lines are handed over
        },
        oversized: () => out.push('oversized'),
        invalidUtf8: () => out.push('invalid-utf8'),
      },
      1024,
    );
    const chunk = bytes('{"n":1}\n{"n":2}\n{"n":3}\n{"n":4');
    decoder.push(chunk);
    expect(out).toEqual(['{"n":1}', '{"n":2}']);
    chunk.fill(0x20); // the caller reuses its buffer: what is held must be a copy
    decoder.push(bytes('}\n{"n":5}\n{"n":6'));
    decoder.end();
    expect(out).toEqual(['{"n":1}', '{"n":2}']);
    decoder.resume();
    expect(out).toEqual(['{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}', '{"n":5}', '{"n":6']);
  });
});

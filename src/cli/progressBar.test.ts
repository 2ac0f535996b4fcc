import { describe, expect, it } from 'vitest';
import { progressBar } from './progressBar.js';

const CLEAR = '\r\x1b[2K';

function draw(columns: number | undefined, message: string): string {
  const writes: string[] = [];
  const bar = progressBar({ isTTY: true, columns, write: (t: string) => writes.push(t) });
  bar.update({ progress: 1, total: 2, message });
  return (writes[0] ?? '').slice(CLEAR.length);
}

describe('progressBar width (issue 8)', () => {
  const long = 'm'.repeat(200);
  it('uses 80 columns when the terminal reports 0 or nothing', () => {
    expect(draw(0, long)).toHaveLength(79);
    expect(draw(undefined, long)).toHaveLength(79);
    expect(draw(40, long)).toHaveLength(39);
  });

  it('keeps the server message on its line, safe for the terminal', () => {
    expect(draw(120, 'a\nb\x1b[2Jc')).toBe(`[${'#'.repeat(15)}${' '.repeat(15)}] 50% a b\\x1b[2Jc`);
  });

  it('never splits a character made of two UTF-16 units', () => {
    const drawn = draw(80, '😀'.repeat(100));
    expect(drawn.endsWith('\ud83d')).toBe(false);
    expect(Array.from(drawn)).toHaveLength(79);
  });
});

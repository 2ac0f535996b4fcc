import { describe, expect, it } from 'vitest';
import { oversizeOf } from './resultSize.js';

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

describe('oversizeOf', () => {
  it.each([
    ['ASCII', { text: 'a'.repeat(5000) }],
    ['two-byte characters', { text: 'é'.repeat(3000) }],
    ['three-byte characters', { text: '€'.repeat(2000) }],
    ['escaped controls', { text: '\u0001'.repeat(1000) }],
    ['emoji (surrogate pairs)', { text: '😀'.repeat(1500) }],
    ['many small values', { list: Array.from({ length: 800 }, (_, i) => ({ i, s: 'xy' })) }],
  ])('is exact for %s, on both sides of the limit', (_what, value) => {
    const size = bytes(value);
    expect(oversizeOf(value, size - 1)).toBe(size);
    expect(oversizeOf(value, size)).toBeUndefined();
  });

  it('serialises only a result that comes near the limit', () => {
    const watched = (text: string) => ({
      text,
      toJSON: () => {
        throw new Error('serialised');
      },
    });
    expect(oversizeOf(watched('small'), 1024)).toBeUndefined();
    expect(() => oversizeOf(watched('x'.repeat(1000)), 1024)).toThrow('serialised');
  });
});

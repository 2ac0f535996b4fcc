import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './retryAfter.js';

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  it.each([
    [null, undefined],
    ['1', 1000],
    [' 0 ', 0],
    ['60', 60_000],
    ['61', undefined], // longer than the client waits
    ['-1', undefined],
    ['1.5', undefined],
    ['soon', undefined],
    ['Mon, 23 Nov 2026 12:00:05 GMT', 5000],
    ['Mon, 23 Nov 2026 11:00:00 GMT', 0], // a date in the past: now
  ])('%j -> %j', (value, ms) => {
    expect(retryAfterMs(value, now)).toBe(ms);
  });
});

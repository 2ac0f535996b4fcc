import { describe, expect, it } from 'vitest';
import { Deferred } from './deferred.js';

describe('Deferred', () => {
  it('settles once, before or after the callbacks are registered', async () => {
    const later = new Deferred<number>();
    const seen: unknown[] = [];
    later.settleTo(
      (v) => seen.push(['ok', v]),
      (e) => seen.push(['error', e]),
    );
    expect(later.pending).toBe(true);
    later.resolve(1);
    later.resolve(2);
    later.reject(new Error('late'));
    expect(seen).toEqual([['ok', 1]]);
    expect(later.pending).toBe(false);

    const early = new Deferred<number>();
    early.reject('no');
    early.settleTo(
      (v) => seen.push(['ok', v]),
      (e) => seen.push(['error', e]),
    );
    expect(seen.at(-1)).toEqual(['error', 'no']);
    await expect(early.toPromise()).rejects.toBe('no');
    const resolved = new Deferred<string>();
    resolved.resolve('x');
    await expect(resolved.toPromise()).resolves.toBe('x');
  });
});

import { describe, expect, it } from 'vitest';
import { ResponseCache } from './responseCache.js';

const alice = { endpoint: 'https://mcp.example/mcp', credential: 'alice' };
const bob = { endpoint: 'https://mcp.example/mcp', credential: 'bob' };
const other = { endpoint: 'https://other.example/mcp', credential: 'alice' };
const page = (scope: string, ttlMs?: unknown, extra: Record<string, unknown> = {}) => ({
  resultType: 'complete',
  tools: [{ name: `t-${scope}`, inputSchema: { type: 'object' } }],
  ...(ttlMs === undefined ? {} : { ttlMs }),
  cacheScope: scope,
  ...extra,
});
const list = (context: typeof alice, key = '') => ({ context, method: 'tools/list', key });

function clocked(options: { maxEntries?: number; maxBytes?: number } = {}) {
  let now = 1_000;
  const cache = new ResponseCache({ ...options, now: () => now });
  return { cache, advance: (ms: number) => (now += ms) };
}

describe('ResponseCache', () => {
  it('serves a result while now < received + ttlMs, and not from then on', () => {
    const { cache, advance } = clocked();
    const result = page('public', 500);
    cache.put(list(alice), result);
    advance(499);
    expect(cache.get(list(alice))).toBe(result);
    advance(1);
    expect(cache.get(list(alice))).toBeUndefined();
  });

  it('keeps nothing for a ttlMs that is 0, absent, negative or not a number, or without a valid scope', () => {
    const { cache } = clocked();
    for (const result of [
      page('public', 0),
      page('public'),
      page('public', -5),
      page('public', '60000'),
      page('shared', 60_000),
      page('public', Number.POSITIVE_INFINITY),
    ])
      cache.put(list(alice), result);
    expect(cache.size).toBe(0);
  });

  it('never keeps an input_required result (a round trip depends on inputs outside the key)', () => {
    const { cache } = clocked();
    cache.put(list(alice), page('public', 60_000, { resultType: 'input_required' }));
    expect(cache.get(list(alice))).toBeUndefined();
  });

  it('serves a public result to every credential of the endpoint, a private one only to its own', () => {
    const { cache } = clocked();
    const shared = page('public', 60_000);
    cache.put(list(alice, ''), shared);
    expect(cache.get(list(bob, ''))).toBe(shared);
    const mine = page('private', 60_000);
    cache.put(list(alice, 'c2'), mine);
    expect(cache.get(list(alice, 'c2'))).toBe(mine);
    expect(cache.get(list(bob, 'c2'))).toBeUndefined();
    // Never across endpoints, whatever the scope.
    expect(cache.get(list(other, ''))).toBeUndefined();
  });

  it('keys by method and parameters: another cursor is another result', () => {
    const { cache } = clocked();
    cache.put(list(alice, 'page-2'), page('public', 60_000));
    expect(cache.get(list(alice, ''))).toBeUndefined();
    expect(cache.get({ context: alice, method: 'prompts/list', key: 'page-2' })).toBeUndefined();
  });

  it('a result that changes scope replaces the other scope’s entry for the same request', () => {
    const { cache } = clocked();
    cache.put(list(alice), page('public', 60_000));
    const now = page('private', 60_000);
    cache.put(list(alice), now);
    expect(cache.get(list(bob))).toBeUndefined();
    expect(cache.get(list(alice))).toBe(now);
    expect(cache.size).toBe(1);
  });

  it('invalidate forgets one method of one endpoint, for every credential', () => {
    const { cache } = clocked();
    cache.put(list(alice, ''), page('private', 60_000));
    cache.put(list(bob, ''), page('private', 60_000));
    cache.put(list(alice, 'c2'), page('public', 60_000));
    cache.put(list(other, ''), page('public', 60_000));
    cache.put({ context: alice, method: 'resources/list', key: '' }, page('public', 60_000));
    cache.invalidate(alice.endpoint, 'tools/list');
    expect(cache.size).toBe(2);
    expect(cache.get(list(other, ''))).toBeDefined();
    expect(cache.get({ context: alice, method: 'resources/list', key: '' })).toBeDefined();
  });

  it('is bounded: the least recently used entry goes first', () => {
    const { cache } = clocked({ maxEntries: 2 });
    cache.put(list(alice, 'a'), page('public', 60_000));
    cache.put(list(alice, 'b'), page('public', 60_000));
    expect(cache.get(list(alice, 'a'))).toBeDefined(); // a is now the most recent
    cache.put(list(alice, 'c'), page('public', 60_000));
    expect(cache.size).toBe(2);
    expect(cache.get(list(alice, 'b'))).toBeUndefined();
    expect(cache.get(list(alice, 'a'))).toBeDefined();
    expect(cache.get(list(alice, 'c'))).toBeDefined();
  });

  it('is bounded by size too: a server cannot fill the memory with big pages', () => {
    const big = (n: number) => page('public', 60_000, { filler: 'x'.repeat(n) });
    const { cache } = clocked({ maxBytes: 1_200 }); // two pages of ~530 fit, three do not
    cache.put(list(alice, 'a'), big(400));
    cache.put(list(alice, 'b'), big(400));
    cache.put(list(alice, 'c'), big(400)); // a goes to make room
    expect(cache.get(list(alice, 'a'))).toBeUndefined();
    expect(cache.get(list(alice, 'b'))).toBeDefined();
    expect(cache.get(list(alice, 'c'))).toBeDefined();
    cache.put(list(alice, 'd'), big(2_000)); // larger than the whole cache: not kept
    expect(cache.get(list(alice, 'd'))).toBeUndefined();
    expect(cache.size).toBe(2);
  });
});

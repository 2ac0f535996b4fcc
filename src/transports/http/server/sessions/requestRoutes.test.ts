import { describe, expect, it } from 'vitest';
import { RequestRoutes } from './requestRoutes.js';

describe('RequestRoutes', () => {
  it('routes each id to its destination, one in the fields and the others in the Map', () => {
    const routes = new RequestRoutes<string>();
    routes.set(1, 'a');
    routes.set('1', 'b');
    routes.set(2, 'c');
    expect([routes.get(1), routes.get('1'), routes.get(2), routes.get(3)]).toEqual([
      'a',
      'b',
      'c',
      undefined,
    ]);
    expect(routes.size).toBe(3);
    routes.set('1', 'd'); // moved on (a POST that became a stream)
    expect(routes.get('1')).toBe('d');
    expect(routes.size).toBe(3);
    expect([...routes.values()].sort()).toEqual(['a', 'c', 'd']);
  });

  it('releases a route only while it still leads where the caller says', () => {
    const routes = new RequestRoutes<string>();
    routes.set(1, 'a');
    routes.set(2, 'b');
    routes.release(1, 'other');
    routes.release(2, 'other');
    expect(routes.has(1) && routes.has(2)).toBe(true);
    routes.release(1, 'a');
    expect(routes.has(1)).toBe(false);
    // The id in the Map keeps its place: setting it again does not put it twice.
    routes.set(2, 'b2');
    routes.set(1, 'a2');
    expect(routes.size).toBe(2);
    routes.release(2, 'b2');
    expect([routes.get(1), routes.get(2), routes.size]).toEqual(['a2', undefined, 1]);
    routes.release(1, 'a2');
    expect(routes.size).toBe(0);
    routes.set(3, 'c');
    routes.clear();
    expect([routes.size, routes.has(3)]).toEqual([0, false]);
  });
});

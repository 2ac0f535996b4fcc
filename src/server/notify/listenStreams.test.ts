import { describe, expect, it } from 'vitest';
import { ListenStreams, type OpenListen } from './listenStreams.js';

function listen(toolsListChanged: boolean) {
  const seen: string[] = [];
  const open: OpenListen = {
    toolsListChanged,
    toolsChanged: () => seen.push('changed'),
    end: () => seen.push('end'),
  };
  return { open, seen };
}

describe('ListenStreams', () => {
  it('tells the listens that asked, forgets removed ones, and ends the rest once', () => {
    const streams = new ListenStreams();
    const tools = listen(true);
    const quiet = listen(false);
    const gone = listen(true);
    streams.add(tools.open, 'a');
    streams.add(quiet.open, 'a');
    const remove = streams.add(gone.open, 'b');
    remove();
    expect(streams.size).toBe(2);
    streams.toolsChanged();
    streams.closeAll();
    streams.closeAll();
    expect(tools.seen).toEqual(['changed', 'end']);
    expect(quiet.seen).toEqual(['end']);
    expect(gone.seen).toEqual([]);
    expect(streams.size).toBe(0);
  });

  it('caps the listens open at once per client and in all, and counts a removed one out once', () => {
    const streams = new ListenStreams({ max: 3, perClient: 2 });
    const removeA = streams.add(listen(true).open, 'a');
    streams.add(listen(true).open, 'a');
    expect(() => streams.add(listen(true).open, 'a')).toThrow(
      expect.objectContaining({
        code: -31429,
        message: 'Too many open subscriptions/listen streams (at most 2 per client); retry in 1 s',
        data: { retryAfterMs: 1000, limit: 'listens' },
      }),
    );
    streams.add(listen(true).open, 'b');
    expect(() => streams.add(listen(true).open, 'c')).toThrow(/at most 3\)/);
    removeA();
    removeA();
    expect(streams.size).toBe(2);
    streams.add(listen(true).open, 'a');
    expect(() => streams.add(listen(true).open, 'a')).toThrow(/2 per client/);
    expect(() => new ListenStreams({ perClient: 0 })).toThrow(RangeError);
  });
});

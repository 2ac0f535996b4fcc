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
    streams.add(tools.open);
    streams.add(quiet.open);
    const remove = streams.add(gone.open);
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
});

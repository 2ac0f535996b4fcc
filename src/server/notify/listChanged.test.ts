import { describe, expect, it } from 'vitest';
import { sleep } from '../../../test/support/scriptedTransport.js';
import { ListChangedNotice, type ChangeListener } from './listChanged.js';
import { ListenStreams } from './listenStreams.js';

function session(): ChangeListener & { told: number[] } {
  const told: number[] = [];
  return { told, notifyToolListChanged: (count) => told.push(count) };
}

describe('ListChangedNotice', () => {
  it('sends one notice for the changes of one window, to sessions and listens', async () => {
    const sessions = new Set<ChangeListener>();
    const listens = new ListenStreams();
    const s = session();
    let listenTold = 0;
    sessions.add(s);
    listens.add({ toolsListChanged: true, toolsChanged: () => listenTold++, end: () => {} }, 'c');
    const notice = new ListChangedNotice({ sessions, listens }, 5);
    notice.changed();
    notice.changed();
    notice.changed();
    expect(s.told).toEqual([]);
    await sleep(20);
    expect(s.told).toEqual([3]);
    expect(listenTold).toBe(1);
    notice.changedNow();
    expect(s.told).toEqual([3, 4]);
    expect(listenTold).toBe(2);
  });

  it('counts changes but runs no timer with nobody to tell, and stops', async () => {
    const sessions = new Set<ChangeListener>();
    const notice = new ListChangedNotice({ sessions, listens: new ListenStreams() }, 5);
    notice.changed();
    expect(notice.changes).toBe(1);
    const s = session();
    sessions.add(s);
    notice.changed();
    notice.stop();
    await sleep(20);
    expect(s.told).toEqual([]);
  });
});

/**
 * The contract every shared event store meets (SSE resumption on any instance): run against the
 * in-memory store and the Redis store.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SharedEventStore } from '../../src/transports/http/server/sessions/cluster/cluster.js';
import type { StoredEvent } from '../../src/transports/http/server/sessions/eventStore.js';

const note = (n: number) => ({
  jsonrpc: '2.0' as const,
  method: 'notifications/progress',
  params: { n },
});

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
}

/** Runs the contract; `make` builds a store (maxEventsPerStream 5) with nothing in it. */
export function eventStoreContract(
  name: string,
  make: () => Promise<{ store: SharedEventStore; close: () => Promise<void> }>,
): void {
  describe(`SharedEventStore contract: ${name}`, () => {
    const opened: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const close of opened.splice(0)) await close();
    });
    const fresh = async (): Promise<SharedEventStore> => {
      const made = await make();
      opened.push(made.close);
      return made.store;
    };
    const append = (store: SharedEventStore, stream: string, seq: number, session = 's1') =>
      store.append({
        streamId: stream,
        sessionId: session,
        eventId: `${stream}:${seq}`,
        message: note(seq),
      });

    it('replays the events of one stream after an id, in order, with their session', async () => {
      const store = await fresh();
      for (let i = 1; i <= 3; i++) await append(store, 'a', i);
      await append(store, 'b', 1);
      const replay = await store.replayAfter('a:1');
      expect(replay?.sessionId).toBe('s1');
      expect(replay?.streamId).toBe('a');
      expect(replay?.events.map((e) => e.id)).toEqual(['a:2', 'a:3']);
      expect(replay?.events[0]?.message).toEqual(note(2));
      expect(await store.replayAfter('unknown:1')).toBeUndefined();
      expect(await store.replayAfter('not an id')).toBeUndefined();
    });

    it('knows a stream opened before its first event: it can be followed from its priming id', async () => {
      const store = await fresh();
      expect(await store.replayAfter('early:0')).toBeUndefined();
      await store.openStream({ streamId: 'early', sessionId: 's9' });
      await store.openStream({ streamId: 'early', sessionId: 'other' }); // never changes owner
      expect(await store.replayAfter('early:0')).toEqual({
        streamId: 'early',
        sessionId: 's9',
        events: [],
      });
      const seen: string[] = [];
      let ended = false;
      const followed = await store.follow({
        lastEventId: 'early:0',
        onEvent: (e) => seen.push(e.id),
        onEnd: () => (ended = true),
      });
      expect(followed?.sessionId).toBe('s9');
      await append(store, 'early', 1, 's9');
      await store.endStream('early');
      for (let i = 0; i < 100 && !ended; i++) await new Promise((r) => setTimeout(r, 10));
      expect(seen).toEqual(['early:1']);
      expect(ended).toBe(true);
      followed?.stop();
      await store.dropSession('s9');
      expect(await store.replayAfter('early:0')).toBeUndefined();
    });

    it('keeps only the newest events of a long stream', async () => {
      const store = await fresh();
      for (let i = 1; i <= 8; i++) await append(store, 'long', i);
      const replay = await store.replayAfter('long:0');
      expect(replay?.events.map((e) => e.id)).toEqual([
        'long:4',
        'long:5',
        'long:6',
        'long:7',
        'long:8',
      ]);
    });

    it('never drops a response or request, keeps the latest progress per token, caps the rest', async () => {
      const store = await fresh();
      const put = (seq: number, message: Parameters<SharedEventStore['append']>[0]['message']) =>
        store.append({ streamId: 'mix', sessionId: 's1', eventId: `mix:${seq}`, message });
      await put(1, { jsonrpc: '2.0', id: 1, result: { first: true } });
      await put(2, { jsonrpc: '2.0', id: 'srv-1', method: 'elicitation/create', params: {} });
      let seq = 2;
      for (let i = 0; i < 18; i++) {
        await put(++seq, {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'tok', progress: i },
        });
        await put(++seq, { jsonrpc: '2.0', method: 'notifications/message', params: { i } });
      }
      await put(100, { jsonrpc: '2.0', id: 2, result: { last: true } });
      const ids = (await store.replayAfter('mix:0'))?.events.map((e) => e.id);
      // The cap (5 in this suite) counts notifications, progress included; log messages go first.
      expect(ids).toEqual([
        'mix:1',
        'mix:2',
        'mix:32', // the four newest log messages
        'mix:34',
        'mix:36',
        'mix:37', // the latest progress of the token
        'mix:38',
        'mix:100',
      ]);
    });

    it('refuses a malformed event id', async () => {
      const store = await fresh();
      await expect(
        store.append({ streamId: 'x', sessionId: 's', eventId: 'no-seq', message: note(0) }),
      ).rejects.toThrow(/Malformed event id/);
    });

    it('follow replays, then delivers each later event once, then the end', async () => {
      const store = await fresh();
      await append(store, 'f', 1);
      await append(store, 'f', 2);
      const seen: StoredEvent[] = [];
      let ended = 0;
      const followed = await store.follow({
        lastEventId: 'f:1',
        onEvent: (e) => seen.push(e),
        onEnd: () => ended++,
      });
      expect(followed?.sessionId).toBe('s1');
      await append(store, 'f', 3);
      await append(store, 'f', 4);
      await waitFor(() => seen.length === 3);
      await store.endStream('f');
      await waitFor(() => ended > 0);
      expect(seen.map((e) => e.id)).toEqual(['f:2', 'f:3', 'f:4']);
      expect(ended).toBe(1);
      expect(
        await store.follow({ lastEventId: 'gone:1', onEvent: () => {}, onEnd: () => {} }),
      ).toBeUndefined();
    });

    it('following an ended stream replays it and ends at once', async () => {
      const store = await fresh();
      await append(store, 'e', 1);
      await append(store, 'e', 2);
      await store.endStream('e');
      const seen: string[] = [];
      let ended = false;
      await store.follow({
        lastEventId: 'e:0',
        onEvent: (e) => seen.push(e.id),
        onEnd: () => (ended = true),
      });
      expect(seen).toEqual(['e:1', 'e:2']);
      expect(ended).toBe(true);
    });

    it('stop() ends the delivery to a follower', async () => {
      const store = await fresh();
      await append(store, 'st', 1);
      const seen: string[] = [];
      const followed = await store.follow({
        lastEventId: 'st:1',
        onEvent: (e) => seen.push(e.id),
        onEnd: () => {},
      });
      followed?.stop();
      await append(store, 'st', 2);
      await new Promise((r) => setTimeout(r, 50));
      expect(seen).toEqual([]);
    });

    it('dropStream and dropSession forget streams and end their followers', async () => {
      const store = await fresh();
      await append(store, 'd1', 1, 'sx');
      await append(store, 'd2', 1, 'sx');
      await append(store, 'd3', 1, 'sy');
      let ends = 0;
      await store.follow({ lastEventId: 'd2:1', onEvent: () => {}, onEnd: () => ends++ });
      await store.dropStream('d1');
      expect(await store.replayAfter('d1:0')).toBeUndefined();
      await store.dropSession('sx');
      await waitFor(() => ends > 0);
      expect(ends).toBe(1);
      expect(await store.replayAfter('d2:0')).toBeUndefined();
      expect((await store.replayAfter('d3:0'))?.events).toHaveLength(1);
    });
  });
}

/**
 * Found in CI during issue 12: the issue-9 poller looping without pause was once refused with
 * "retry in 101 ms". Its waiting poll was answered by a timer on libuv's loop clock, and its next
 * poll read `Date.now()` a millisecond short of a full interval later, so it looked one interval
 * and a hair early. A poll that comes within a few milliseconds of its turn now waits, as the
 * interval promises; polls sent side by side are still refused.
 */
import { describe, expect, it } from 'vitest';
import { PollGate } from '../../src/server/tasks/taskGuards.js';

describe('issue 12: a poll arriving a millisecond before its turn', () => {
  it('waits for its turn instead of being refused', () => {
    let now = 1_000;
    const gate = new PollGate({ intervalMs: 100, burst: 2, now: () => now });
    gate.take('a', 't');
    gate.take('a', 't');
    expect(gate.take('a', 't')).toEqual({ kind: 'wait', waitMs: 100 });
    now += 99; // the timer of that wait fired; Date.now() says 99 ms went by
    expect(gate.take('a', 't')).toEqual({ kind: 'wait', waitMs: 101 });
  });

  it('still refuses a poll sent side by side with a waiting one', () => {
    const now = 1_000;
    const gate = new PollGate({ intervalMs: 100, burst: 1, now: () => now });
    expect(gate.take('a', 't').kind).toBe('now');
    expect(gate.take('a', 't').kind).toBe('wait');
    expect(gate.take('a', 't')).toEqual({ kind: 'refuse', retryAfterMs: 200 });
  });
});

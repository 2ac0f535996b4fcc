import { describe, expect, it } from 'vitest';
import { DeadlineSweep, type Expiring } from './deadlineSweep.js';

function call(deadlineAt: number, expired: string[], name: string): Expiring {
  return {
    deadlineAt,
    expire: () => expired.push(name),
    sweepPrev: undefined,
    sweepNext: undefined,
    sweepWatched: false,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('DeadlineSweep', () => {
  it('expires only the calls still watched when their deadline passes, in one timer', async () => {
    const sweep = new DeadlineSweep();
    const expired: string[] = [];
    const now = Date.now();
    const a = call(now + 20, expired, 'a');
    const b = call(now + 20, expired, 'b');
    const c = call(now + 60, expired, 'c');
    const d = call(now + 10, expired, 'd'); // earlier than the armed timer: re-arms
    for (const x of [a, b, c, d]) sweep.add(x);
    sweep.add(a); // twice is once
    expect(sweep.size).toBe(4);
    sweep.remove(b); // settled before its deadline
    sweep.remove(b);
    await sleep(35);
    expect(expired.sort()).toEqual(['a', 'd']);
    expect(sweep.size).toBe(1);
    await sleep(45);
    expect(expired.sort()).toEqual(['a', 'c', 'd']);
    expect(sweep.size).toBe(0);
  });

  it('keeps its list intact whichever call leaves first', () => {
    const sweep = new DeadlineSweep();
    const calls = Array.from({ length: 5 }, (_, i) => call(Date.now() + 60_000, [], String(i)));
    for (const x of calls) sweep.add(x);
    for (const i of [2, 0, 4, 1, 3]) sweep.remove(calls[i] as Expiring);
    expect(sweep.size).toBe(0);
    sweep.add(calls[1] as Expiring);
    expect(sweep.size).toBe(1);
    sweep.stop();
  });
});

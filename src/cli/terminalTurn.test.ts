import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { takeTurn } from './terminalTurn.js';

/** A terminal: lines the person types with `type`, and the screen. */
function terminal() {
  const input = new PassThrough();
  let screen = '';
  return {
    input,
    output: { write: (text: string) => (screen += text) },
    type: (line: string) => input.write(`${line}\n`),
    screen: () => screen,
  };
}

describe('one dialogue at a time on a terminal', () => {
  it('gives a line to one question only, and shows the next dialogue after the first ends', async () => {
    const t = terminal();
    const first = takeTurn(t, async (ask) => {
      t.output.write('Allow the call?\n');
      return ask('[y/N] ');
    });
    const second = takeTurn(t, async (ask) => {
      t.output.write('Open https://example.com?\n');
      return ask('[y/N] ');
    });
    await sleep(20);
    expect(t.screen()).toBe('Allow the call?\n[y/N] ');
    t.type('y');
    expect(await first).toBe('y');
    await sleep(20);
    // The second question is shown only now, and still waits: the "y" was not its answer.
    expect(t.screen()).toBe('Allow the call?\n[y/N] Open https://example.com?\n[y/N] ');
    let answered = false;
    void second.then(() => (answered = true));
    await sleep(20);
    expect(answered).toBe(false);
    t.type('n');
    expect(await second).toBe('n');
  });

  it('lets a waiting dialogue give up without letting the one after it jump the queue', async () => {
    const t = terminal();
    const first = takeTurn(t, (ask) => ask('first? '));
    const cancel = new AbortController();
    const waiting = takeTurn({ ...t, signal: cancel.signal }, (ask) => ask('never shown? '));
    const third = takeTurn(t, (ask) => ask('third? '));
    cancel.abort(new Error('withdrawn'));
    await expect(waiting).rejects.toThrow('withdrawn');
    await sleep(20);
    expect(t.screen()).toBe('first? ');
    t.type('1');
    expect(await first).toBe('1');
    await sleep(20);
    t.type('3');
    expect(await third).toBe('3');
    expect(t.screen()).toBe('first? third? ');
  });

  it('fails the question, and those queued behind it, at the end of the input (found in review)', async () => {
    const t = terminal();
    const first = takeTurn(t, (ask) => ask('first? '));
    const second = takeTurn(t, (ask) => ask('second? '));
    await sleep(20);
    t.input.end(); // Ctrl-D
    await expect(first).rejects.toThrow('no more input');
    await expect(second).rejects.toThrow('no more input');
  });
});

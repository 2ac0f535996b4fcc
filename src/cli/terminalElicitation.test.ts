import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { terminalElicitation } from './terminalElicitation.js';

const params = {
  mode: 'form' as const,
  message: 'How should the note be called?',
  requestedSchema: {
    type: 'object' as const,
    properties: { title: { type: 'string' as const } },
    required: ['title'],
  },
};

/** A terminal where the person types each of `answers` once a question is shown. */
function terminal(signal: AbortSignal | undefined, ...answers: string[]) {
  const input = new PassThrough();
  let screen = '';
  const output = {
    write: (text: string) => {
      screen += text;
      const next = /(: |> )$/.test(text) ? answers.shift() : undefined;
      if (next !== undefined) setImmediate(() => input.write(`${next}\n`));
    },
  };
  return { io: { input, output, ...(signal ? { signal } : {}) }, screen: () => screen };
}

describe('elicitation on the terminal', () => {
  it('asks field by field and accepts', async () => {
    const t = terminal(undefined, 'a', 'Shopping');
    const answer = terminalElicitation(t.io)(params, { signal: new AbortController().signal });
    expect(await answer).toEqual({ action: 'accept', content: { title: 'Shopping' } });
    expect(t.screen()).toContain('The server asks: How should the note be called?');
  });

  it('withdraws a question the server cancelled, with cancel', async () => {
    const t = terminal(new AbortController().signal, 'a');
    const request = new AbortController();
    const answer = terminalElicitation(t.io)(params, { signal: request.signal });
    await sleep(50); // accepted; now asked for the title
    expect(t.screen()).toMatch(/> $/);
    request.abort();
    expect(await answer).toEqual({ action: 'cancel' });
    expect(t.screen()).toContain('The server withdrew its question.');
  });

  it('lets Ctrl-C end the command rather than answer', async () => {
    const interrupt = new AbortController();
    const t = terminal(interrupt.signal);
    const answer = terminalElicitation(t.io)(params, { signal: new AbortController().signal });
    await sleep(20);
    interrupt.abort();
    await expect(answer).rejects.toMatchObject({ name: 'AbortError' });
  });
});

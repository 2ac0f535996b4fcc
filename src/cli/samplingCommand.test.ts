import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfig } from './config.js';
import { commandSampling, replyOf, runModelCommand } from './samplingCommand.js';

const node = (script: string, timeoutMs?: number) => ({
  command: process.execPath,
  args: ['-e', script],
  ...(timeoutMs !== undefined ? { timeoutMs } : {}),
});
const ECHO = 'process.stdin.pipe(process.stdout)';
const params = {
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Hi' } }],
  maxTokens: 10,
};
const never = new AbortController().signal;

describe('a model command', () => {
  it('replies with text, or with a CreateMessageResult printed as JSON', () => {
    expect(replyOf(' Hello \n', 'm')).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'Hello' },
      model: 'm',
    });
    expect(
      replyOf('{"content":{"type":"text","text":"x"},"model":"local","stopReason":"endTurn"}', 'm'),
    ).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'x' },
      model: 'local',
      stopReason: 'endTurn',
    });
    // JSON that is not a result is text like any other.
    expect(replyOf('{"answer": 42}', 'm').content).toEqual({
      type: 'text',
      text: '{"answer": 42}',
    });
    expect(() => replyOf('  ', 'm')).toThrow(/printed no reply/);
  });

  it('gets the request on stdin; fails in the protocol terms when it fails', async () => {
    expect(await runModelCommand(node(ECHO), 'the request', never)).toBe('the request');
    await expect(runModelCommand(node('process.exit(3)'), '', never)).rejects.toMatchObject({
      code: -32603,
      message: 'The model command exited with 3',
    });
    await expect(
      runModelCommand({ command: '/nonexistent/model', args: [] }, '', never),
    ).rejects.toMatchObject({ code: -32603, message: expect.stringContaining('ENOENT') });
    await expect(
      runModelCommand(node('setTimeout(() => {}, 60000)', 200), '', never),
    ).rejects.toMatchObject({ message: 'The model command timed out' });
    const cancel = new AbortController();
    const cancelled = runModelCommand(node('setTimeout(() => {}, 60000)'), '', cancel.signal);
    setTimeout(() => cancel.abort(), 100);
    await expect(cancelled).rejects.toMatchObject({
      message: 'The sampling request was cancelled',
    });
    await expect(
      runModelCommand(node('process.stdout.write("x".repeat(2 * 1024 * 1024))'), '', never),
    ).rejects.toMatchObject({ message: expect.stringContaining('more than 1048576 bytes') });
  });

  it('ends a command that ignores SIGTERM, and what it started, when its time is up', async () => {
    // Each process writes its pid, then outlives any polite request to stop.
    const dir = mkdtempSync(join(tmpdir(), 'toolwire-model-'));
    const pids = join(dir, 'pids');
    const stubborn = (pidFile: string) =>
      `require('fs').appendFileSync(${JSON.stringify(pidFile)}, process.pid + '\\n');` +
      `process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);`;
    const grandchild = `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(
      stubborn(pids),
    )}], { stdio: ['ignore', 'inherit', 'inherit'] });`;
    await expect(
      // Time for two Node start-ups on a slow machine before the limit.
      runModelCommand(node(grandchild + stubborn(pids), 2500), '', never),
    ).rejects.toMatchObject({ message: 'The model command timed out' });
    const started = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    expect(started).toHaveLength(2);
    // SIGKILL follows SIGTERM after a grace period; wait (bounded) for both to be gone.
    // A zombie waiting for its reaper is gone too.
    const alive = (pid: number) => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 100 && started.some(alive); i++) await sleep(50);
    expect(started.filter(alive)).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  }, 20_000);

  it('asks the person before sending and before returning, on a terminal', async () => {
    // A terminal where the person answers each question once it is shown.
    const ask = (...answers: string[]) => {
      const input = new PassThrough();
      let shown = '';
      const output = {
        write: (text: string) => {
          shown += text;
          const next = text.endsWith('[y/N] ') ? answers.shift() : undefined;
          if (next !== undefined) setImmediate(() => input.write(`${next}\n`));
        },
      };
      return { io: { input, output }, shown: () => shown };
    };
    const both = ask('y', 'y');
    const reply = await commandSampling(node('process.stdout.write("Hello there")'), both.io)(
      params,
      { signal: never },
    );
    expect(reply.content).toEqual({ type: 'text', text: 'Hello there' });
    expect(both.shown()).toContain('user: Hi');
    expect(both.shown()).toContain('The model replied: Hello there');
    const keep = ask('y', 'n');
    await expect(
      commandSampling(node('process.stdout.write("secret")'), keep.io)(params, { signal: never }),
    ).rejects.toMatchObject({ code: -1, message: 'User rejected the sampling reply' });
    const deny = ask('');
    await expect(
      commandSampling(node('process.exit(9)'), deny.io)(params, { signal: never }),
    ).rejects.toMatchObject({ code: -1, message: 'User rejected sampling request' });
    expect(deny.shown()).not.toContain('replied');
    // The server cancels while the person is still being asked: the question goes away.
    const waiting = ask();
    const cancel = new AbortController();
    const withdrawn = commandSampling(node(ECHO), waiting.io)(params, { signal: cancel.signal });
    await sleep(20);
    cancel.abort();
    await expect(withdrawn).rejects.toMatchObject({ name: 'AbortError' });
    expect(waiting.shown()).toContain('The server withdrew its sampling request.');
  });
});

describe('config.json "sampling"', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolwire-config-'));
  const path = join(dir, 'config.json');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const read = (value: unknown) => {
    writeFileSync(path, JSON.stringify(value));
    return () => readConfig(path);
  };

  it('names a command, its arguments and a time limit', () => {
    expect(read({ sampling: { command: 'llm', args: ['-m', 'x'], timeoutMs: 5000 } })()).toEqual({
      sampling: { command: 'llm', args: ['-m', 'x'], timeoutMs: 5000 },
    });
    expect(read({ sampling: { command: 'llm' } })()).toEqual({
      sampling: { command: 'llm', args: [] },
    });
  });

  it.each([
    [{ sampling: 'llm -m x' }, /"sampling" must be/],
    [{ sampling: { command: '' } }, /"sampling" must be/],
    [{ sampling: { command: 'llm', args: '-m x' } }, /"sampling.args"/],
    [{ sampling: { command: 'llm', timeoutMs: -1 } }, /"sampling.timeoutMs"/],
    // Longer than a timer can wait: it would fire at once.
    [{ sampling: { command: 'llm', timeoutMs: 2 ** 31 } }, /from 1 to 2147483647/],
  ])('refuses %j', (value, message) => {
    expect(read(value)).toThrow(message);
  });
});

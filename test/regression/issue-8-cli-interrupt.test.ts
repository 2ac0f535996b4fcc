// Issue 8: Ctrl-C during `call` sends notifications/cancelled (tasks/cancel for a task), clears
// the progress bar and exits 130; a second Ctrl-C exits at once.
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callCommand } from '../../src/cli/clientCommands.js';
import { CliFailure } from '../../src/cli/failure.js';
import { interruptOnSigint } from '../../src/cli/interrupt.js';
import { CLI_SERVER, serveHttp, startToolwire, until } from '../support/cliRun.js';
import { CLI } from '../support/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'toolwire-interrupt-'));
let logs = 0;
const newLog = (): string => join(dir, `log-${++logs}.txt`);
const read = (file: string): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');

/** The fixture as a stdio server started by the CLI, logging to `log` (passed through `env`). */
const stdioServer = (log: string): string[] => [
  '--',
  'env',
  `CLI_FIXTURE_LOG=${log}`,
  process.execPath,
  CLI,
  'serve',
  CLI_SERVER,
];

async function interruptedCall(args: string[], log: string) {
  const call = startToolwire(['call', '--yes', 'slow', ...args]);
  await until(() => read(log).includes('started'), 15_000, 'the tool to start');
  call.kill('SIGINT');
  const result = await call.exited;
  // The server logs the cancellation as it handles it: give it a moment after the CLI left.
  await until(() => read(log).includes('cancelled'), 5000, 'the server to hear the cancellation');
  return { result, log: read(log) };
}

describe('Ctrl-C during call', () => {
  const servers: Array<Awaited<ReturnType<typeof serveHttp>>> = [];
  afterAll(async () => {
    for (const s of servers) {
      s.child.kill('SIGTERM');
      await s.child.exited;
    }
  });

  it('over stdio: sends notifications/cancelled and exits 130', async () => {
    const log = newLog();
    const { result, log: text } = await interruptedCall(stdioServer(log), log);
    expect(result.code).toBe(130);
    expect(result.stderr).toBe('toolwire: interrupted; the call was cancelled\n');
    expect(text).toContain('cancelled: Aborted by the requester');
  });

  it('over stdio, a task: sends tasks/cancel (the tasks extension, and a 2025-11-25 task)', async () => {
    for (const era of ['auto', 'legacy']) {
      const log = newLog();
      const { result, log: text } = await interruptedCall(
        ['--task', '--era', era, ...stdioServer(log)],
        log,
      );
      expect(result.code).toBe(130);
      expect(text).toContain('cancelled: The task was cancelled');
    }
  });

  it('over HTTP: the cancellation reaches the server before the connection closes (both eras)', async () => {
    const log = newLog();
    const http = await serveHttp(CLI_SERVER, [], { CLI_FIXTURE_LOG: log });
    servers.push(http);
    // 2026-07-28 (auto finds it): closing the request's stream is the cancellation.
    const plain = await interruptedCall([http.url], log);
    expect(plain.result.code).toBe(130);
    expect(plain.log).toContain('cancelled: The client closed the request');
    // A 2025 session: notifications/cancelled, sent before the connection closes.
    const legacyLog = newLog();
    const legacyServer = await serveHttp(CLI_SERVER, [], { CLI_FIXTURE_LOG: legacyLog });
    servers.push(legacyServer);
    const legacy = await interruptedCall(['--era', 'legacy', legacyServer.url], legacyLog);
    expect(legacy.result.code).toBe(130);
    expect(legacy.log).toContain('cancelled: Aborted by the requester');
    const taskLog = newLog();
    const tasks = await serveHttp(CLI_SERVER, [], { CLI_FIXTURE_LOG: taskLog });
    servers.push(tasks);
    // A task of the tasks extension (auto finds 2026-07-28), then a 2025-11-25 one.
    const task = await interruptedCall(['--task', tasks.url], taskLog);
    expect(task.result.code).toBe(130);
    expect(task.log).toContain('cancelled: The task was cancelled');
    const legacyTaskLog = newLog();
    const legacyTasks = await serveHttp(CLI_SERVER, [], { CLI_FIXTURE_LOG: legacyTaskLog });
    servers.push(legacyTasks);
    const legacyTask = await interruptedCall(
      ['--task', '--era', 'legacy', legacyTasks.url],
      legacyTaskLog,
    );
    expect(legacyTask.result.code).toBe(130);
    expect(legacyTask.log).toContain('cancelled: The task was cancelled');
  });

  it('clears the progress bar (80 columns when the terminal reports 0) and fails as interrupted', async () => {
    const log = newLog();
    const signals = new EventEmitter();
    const writes: string[] = [];
    const stderr = { isTTY: true, columns: 0, write: (t: string) => writes.push(t) };
    const running = callCommand(
      {
        kind: 'call',
        tool: 'slow',
        target: { kind: 'command', command: 'env', args: stdioServer(log).slice(2) },
        pairs: [],
        json: undefined,
        jsonOutput: false,
        era: 'legacy',
        timeoutMs: undefined,
        task: false,
        maxMessageBytes: undefined,
        // slow is not read-only: allowed up front, as this test is about the progress bar.
        confirm: 'unless-read-only',
        trustAnnotations: false,
        yes: true,
        audit: undefined,
      },
      { stdout: { write: () => true }, stderr, signals },
    );
    await until(() => writes.length >= 2, 15_000, 'progress');
    const bar = writes.at(-1) ?? '';
    expect(bar).toMatch(/^\r\x1b\[2K\[#*\s*\] \d+% step \d+$/);
    expect(bar.length - '\r\x1b[2K'.length).toBeLessThanOrEqual(79);
    signals.emit('SIGINT');
    const drawn = writes.length;
    await expect(running).rejects.toSatisfy(
      (e) =>
        e instanceof CliFailure && e.failure.kind === 'interrupted' && e.failure.exitCode === 130,
    );
    expect(writes[drawn - 1]).toBe('\r\x1b[2K'); // cleared at once
    expect(writes.slice(drawn).every((w) => w === '\r\x1b[2K')).toBe(true); // and never redrawn
    // Interrupted: the listener stays, so a second Ctrl-C while the program ends still exits 130.
    expect(signals.listenerCount('SIGINT')).toBe(1);
  });

  it('a second Ctrl-C exits at once', () => {
    const signals = new EventEmitter();
    const exits: number[] = [];
    const interrupt = interruptOnSigint(signals, (code) => exits.push(code));
    let cleared = 0;
    interrupt.onInterrupt(() => (cleared += 1));
    signals.emit('SIGINT');
    expect(interrupt.interrupted).toBe(true);
    expect(interrupt.signal.aborted).toBe(true);
    expect(cleared).toBe(1);
    expect(exits).toEqual([]);
    interrupt.dispose();
    // Disposed while the program ends what it started (CI found a second Ctrl-C then killing the
    // program by the default action, leaving a model command running): it still exits 130.
    signals.emit('SIGINT');
    expect(exits).toEqual([130]);
    // Never interrupted: disposing stops listening.
    const quiet = interruptOnSigint(signals, (code) => exits.push(code));
    const before = signals.listenerCount('SIGINT');
    quiet.dispose();
    expect(signals.listenerCount('SIGINT')).toBe(before - 1);
  });
});

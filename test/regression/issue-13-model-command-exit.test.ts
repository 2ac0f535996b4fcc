/**
 * Issue 13, found in review: the model command runs in its own process group (so that it and
 * what it starts can be ended together), which also keeps the terminal's Ctrl-C from reaching
 * it. A CLI that left through process.exit (a second Ctrl-C) while a command that ignores SIGTERM
 * ran left it running, orphaned. Now the process's exit takes every running model command's
 * group with it. Failed before the fix.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { startToolwire, until } from '../support/cliRun.js';
import { ROOT } from '../support/paths.js';

const home = mkdtempSync(join(tmpdir(), 'toolwire-model-exit-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** Whether `pid` runs (a zombie waiting for its reaper does not). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('a model command', () => {
  it('ends with the CLI that started it, even one that ignores SIGTERM, on a double Ctrl-C', async () => {
    const pidFile = join(home, 'pid');
    mkdirSync(join(home, 'toolwire'), { recursive: true });
    const stubborn = `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);`;
    writeFileSync(
      join(home, 'toolwire', 'config.json'),
      JSON.stringify({ sampling: { command: process.execPath, args: ['-e', stubborn] } }),
    );
    const cli = startToolwire(
      [
        'call',
        'summarize_note',
        '--yes',
        '--',
        process.execPath,
        `${ROOT}build/test/fixtures/notesServer.js`,
      ],
      { XDG_CONFIG_HOME: home },
    );
    let pid = 0;
    await until(
      () => {
        try {
          pid = Number(readFileSync(pidFile, 'utf8'));
        } catch {
          pid = 0;
        }
        return pid > 0;
      },
      20_000,
      'the model command to start',
    );
    // Ctrl-C twice: the second leaves at once, through process.exit.
    cli.kill('SIGINT');
    await sleep(100);
    cli.kill('SIGINT');
    const ended = await cli.exited;
    if (ended.code !== 130) {
      // The first Ctrl-C may have done it all already (it said so and was exiting 130) when the
      // second one came: that one then ended the leaving process by the default action.
      expect(cli.signalCode, ended.stderr).toBe('SIGINT');
      expect(ended.stderr).toContain('toolwire: interrupted');
    }
    for (let i = 0; i < 100 && running(pid); i++) await sleep(50);
    const left = running(pid);
    if (left) process.kill(pid, 'SIGKILL');
    expect(left).toBe(false);
  }, 40_000);
});

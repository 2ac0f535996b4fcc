/**
 * Issue 13, found in review: Ctrl-C did nothing while a page was open (the listener waited for the
 * page's event stream, which only the page could end), and a URL that passed the console's check
 * but not `new URL` printed an error and then never exited (the listener was left open). Both
 * tests failed before the fix (they timed out).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { consoleSignIn, startConsole, startToolwire } from '../support/cliRun.js';
import { ROOT } from '../support/paths.js';

const home = mkdtempSync(join(tmpdir(), 'toolwire-console-exit-'));
const started: Array<{ kill(signal: NodeJS.Signals): boolean }> = [];
afterAll(() => {
  for (const child of started) child.kill('SIGKILL'); // a console that did not end
  rmSync(home, { recursive: true, force: true });
});

describe('toolwire console ends', () => {
  it('on Ctrl-C while a page listens to its events', async () => {
    const { url, child } = await startConsole(
      ['--no-history', '--', process.execPath, `${ROOT}build/test/fixtures/notesServer.js`],
      { XDG_CONFIG_HOME: home },
    );
    started.push(child);
    const { headers } = await consoleSignIn(url);
    const events = await fetch(new URL('/api/events', url), { headers });
    expect(events.status).toBe(200);
    const reader = events.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('"type":"state"');
    child.kill('SIGINT');
    const ended = await child.exited;
    expect(ended.code).toBe(0);
    // The page hears the end of its stream.
    for (let i = 0; i < 100; i++) if ((await reader.read()).done) break;
  }, 30_000);

  it('at once, with a usage error, on a URL it cannot parse', async () => {
    const child = startToolwire(['console', 'http://a b/mcp'], { XDG_CONFIG_HOME: home });
    started.push(child);
    const run = await child.exited;
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is not an http(s) URL');
    expect(run.stdout).not.toContain('open http');
  }, 30_000);
});

/**
 * Issue 13 made `call` ask before any tool not marked read-only, and refuse (exit 2) off a
 * terminal. `npm start`, the main job, then printed that refusal for every tool but `add` when run
 * without a terminal (CI, a pipe). Off a terminal the demo now passes --yes and says so; this test
 * failed before.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';

describe('npm start without a terminal', () => {
  it('calls the tools, allowing them with --yes and saying so', () => {
    const run = spawnSync(process.execPath, [`${ROOT}scripts/start.mjs`], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    const shown = run.stdout + run.stderr;
    expect(shown).toContain('no terminal to confirm on: calls pass --yes');
    expect(shown).not.toContain('needs confirmation');
    expect(shown).toContain('$ toolwire call weather --arg city=Lisbon --yes');
    expect(shown).toContain('"city":"Lisbon"');
    expect(shown).toContain('Finished 5 steps');
    expect(shown).toContain('Hello from an embedded resource');
  }, 150_000);
});

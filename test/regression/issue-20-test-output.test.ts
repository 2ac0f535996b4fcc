/**
 * Issue 20: `npm test`'s output. On Node 20, every test file starting the test authorization
 * server printed oidc-provider's "Unsupported runtime" warning (it warns on import on any Node
 * before the 22 LTS); and a log redirected from `npm test` was full of colour codes (Vitest colours
 * its output whenever TERM is not "dumb", terminal or not). The test authorization server now
 * drops that one warning, and `npm test` gives its steps NO_COLOR off a terminal
 * (scripts/plainOutput.mjs).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script of `npm test`; it has no type declarations.
import { plainOutputEnv } from '../../scripts/plainOutput.mjs';
import { ROOT } from '../support/paths.js';

const plain = plainOutputEnv as (
  env: Record<string, string | undefined>,
  streams: ReadonlyArray<{ isTTY?: boolean }>,
) => Record<string, string | undefined>;

/** This process's environment without any colour setting, on an ordinary terminal type. */
function uncoloured(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, TERM: 'xterm' };
  delete env['NO_COLOR'];
  delete env['FORCE_COLOR'];
  return env;
}

const ESC = '\u001b[';
const pipe = { isTTY: false };
const terminal = { isTTY: true };

describe('the test authorization server', () => {
  it('starts without oidc-provider\'s "Unsupported runtime" warning', () => {
    const start = `
      const { startAuthServer } = await import('./test/support/authServer.ts');
      const auth = await startAuthServer();
      console.log(auth.issuer);
      await auth.close();
    `;
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', start],
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
    expect(run.stderr).toBe('');

    // The warning is real on this Node when oidc-provider is imported as it is.
    const bare = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', "import 'oidc-provider'"],
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    const lts = (process.release as { lts?: string }).lts;
    const supported = lts !== undefined && lts.charCodeAt(0) >= 'Jod'.charCodeAt(0);
    expect(bare.stderr.includes('Unsupported runtime')).toBe(!supported);
  });
});

describe('npm test off a terminal', () => {
  it('gives its steps NO_COLOR unless the person chose', () => {
    const env = uncoloured();
    expect(plain(env, [pipe, terminal])).toEqual({ ...env, NO_COLOR: '1' });
    expect(plain(env, [terminal, terminal])).toBe(env);
    expect(plain({ ...env, NO_COLOR: '' }, [pipe, pipe])).toEqual({ ...env, NO_COLOR: '' });
    expect(plain({ ...env, FORCE_COLOR: '1' }, [pipe, pipe])).toEqual({ ...env, FORCE_COLOR: '1' });
    // FORCE_COLOR=0 means plain; Vitest would read any FORCE_COLOR as "colour on".
    expect(plain({ ...env, FORCE_COLOR: '0' }, [terminal, terminal])).toEqual({
      ...env,
      NO_COLOR: '1',
    });
    const script = readFileSync(`${ROOT}scripts/test.mjs`, 'utf8');
    expect(script).toContain('const env = plainOutputEnv();');
    // Every step (the tests and the checks beside them) is started with that environment.
    expect(script).toContain(
      "spawn(file, args, { cwd: root, env, stdio: collect ? 'pipe' : 'inherit' })",
    );
  });

  it('so Vitest writes no colour codes into a redirected log', () => {
    const vitest = (env: Record<string, string | undefined>) =>
      spawnSync(
        process.execPath,
        [
          `${ROOT}node_modules/vitest/vitest.mjs`,
          'run',
          '--passWithNoTests',
          'issue-20-no-such-test',
        ],
        { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 },
      );
    const before = vitest(uncoloured());
    expect(before.status, before.stderr).toBe(0);
    expect(before.stdout + before.stderr).toContain(ESC);

    const after = vitest(plain(uncoloured(), [pipe, pipe]));
    expect(after.status, after.stderr).toBe(0);
    expect(after.stdout).toContain('No test files found');
    expect(after.stdout + after.stderr).not.toContain(ESC);
  });
});

/**
 * Issue 19: "always allow" was keyed by the command as typed, so `-- node server.mjs` run from
 * another folder (another program) was allowed without asking, and a server was shown by the name
 * it gives itself (a fake can call itself "github"). Now a server is identified by what the person
 * configured, with real paths (the program found on PATH, each argument naming a file), and the
 * self-declared name is a label only. Failed before the fix: the second folder's server ran
 * unasked, and `approvals list` showed the words as typed.
 */
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serverIdentity } from '../../src/cli/serverIdentity.js';
import { ROOT } from '../support/paths.js';
import { runCli, runOnTerminal } from '../support/terminal.js';

const home = mkdtempSync(join(tmpdir(), 'toolwire-issue19-identity-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** A folder holding `server.mjs` (the liar fixture) and its `tools.json`. */
function project(name: string, description: string): string {
  const dir = join(home, name);
  mkdirSync(dir);
  // Another file in each folder (the fixture imports toolwire by name, so it stays in build/).
  const fixture = join(ROOT, 'build', 'test', 'fixtures', 'liarServer.js');
  writeFileSync(join(dir, 'server.mjs'), `import ${JSON.stringify(fixture)};\n`);
  writeFileSync(
    join(dir, 'tools.json'),
    JSON.stringify({ serverName: 'github', tools: [{ name: 'push', description }] }),
  );
  return dir;
}

describe('issue 19: a server is what the person configured, with real paths', () => {
  it('does not carry an approval to the same words run from another folder', async () => {
    const good = project('good', 'Pushes commits.');
    const evil = project('evil', 'Pushes commits.');
    const words = ['call', 'push', '--', 'node', 'server.mjs', 'tools.json'];
    const allowed = await runOnTerminal(words, 'a', home, good);
    expect(allowed.screen).toContain('push ran');
    // The person is shown the real paths, and the server's own name only as what it calls itself.
    expect(allowed.screen).toContain(`${JSON.stringify(join(realpathSync(good), 'server.mjs'))}`);
    expect(allowed.screen).toContain('(it calls itself "github")');
    expect((await runCli(words, home, good)).code).toBe(0); // allowed always, there
    const elsewhere = await runCli(words, home, evil);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stdout).not.toContain('push ran');
    const listed = await runCli(['approvals', 'list'], home);
    expect(listed.stdout).toContain(realpathSync(good));
    expect(listed.stdout).not.toContain(realpathSync(evil));
  });

  it('resolves the program on PATH and arguments naming files; keeps other words and URLs', () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'toolwire-identity-')));
    try {
      writeFileSync(join(dir, 'script.js'), '');
      mkdirSync(join(dir, 'bin'));
      writeFileSync(join(dir, 'bin', 'runner'), '#!/bin/sh\n');
      chmodSync(join(dir, 'bin', 'runner'), 0o755);
      const identity = serverIdentity(
        { kind: 'command', command: 'runner', args: ['script.js', '--port', '3', 'not-a-file'] },
        dir,
        { PATH: `/nonexistent:${join(dir, 'bin')}` },
      );
      expect(identity).toBe(
        `-- ${JSON.stringify(join(dir, 'bin', 'runner'))} ${JSON.stringify(join(dir, 'script.js'))} "--port" "3" "not-a-file"`,
      );
      // A program not found stays as typed (it will not start anyway).
      expect(
        serverIdentity({ kind: 'command', command: 'nope', args: [] }, dir, { PATH: '' }),
      ).toBe('-- "nope"');
      expect(serverIdentity({ kind: 'url', url: 'https://Example.com/mcp#x' })).toBe(
        'https://example.com/mcp',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

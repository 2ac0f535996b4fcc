/**
 * Issue 20: `approvals revoke` took a stdio server only in the quoted form `approvals list`
 * prints (`'-- "/usr/bin/node" "/home/me/notes.js"'`, one word), while `list`, `call` and
 * `approvals trust` take the command line after `--`. Now `approvals revoke [<tool>] -- <command>
 * [args...]` takes it as `call <tool> -- <command>` does (the program found on PATH, files
 * resolved to their real paths from the current folder); the URL and quoted forms still work.
 * Failed before the fix: `approvals revoke delete_note -- node notes.js` was a usage error
 * (exit 2) and the approval stayed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';
import { runCli, runOnTerminal } from '../support/terminal.js';

const NOTES = `${ROOT}build/test/fixtures/notesServer.js`;
let home = '';
/** The server as `call` was given it: absolute paths. */
const server = () => ['--', process.execPath, NOTES, join(home, 'description.txt')];
/** The same server named from `home` with relative paths. */
const relativeServer = () => ['--', process.execPath, relative(home, NOTES), 'description.txt'];

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'toolwire-issue20-revoke-'));
  writeFileSync(join(home, 'description.txt'), 'Deletes a note.');
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** Allows delete_note always, on a terminal, as a person does. */
async function allowAlways(): Promise<void> {
  const asked = await runOnTerminal(
    ['call', 'delete_note', '--arg', 'id=1', ...server()],
    'a',
    home,
  );
  expect(asked.code, asked.screen).toBe(0);
  const again = await runCli(['call', 'delete_note', '--arg', 'id=2', ...server()], home);
  expect(again.code, again.stderr).toBe(0);
}

describe('issue 20: approvals revoke takes the server as call does', () => {
  it('revoke <tool> -- <command>: the approval is gone, the next call asks again', async () => {
    await allowAlways();
    const revoked = await runCli(
      ['approvals', 'revoke', 'delete_note', ...relativeServer()],
      home,
      home,
    );
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toMatch(
      /^Revoked "delete_note" of -- ".+" ".+": the next call asks again\.\n$/,
    );
    const refused = await runCli(['call', 'delete_note', '--arg', 'id=3', ...server()], home);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('needs confirmation');
  });

  it('revoke -- <command> takes back every tool of the server; --json-output says which', async () => {
    await allowAlways();
    const revoked = await runCli(
      ['approvals', 'revoke', '--json-output', ...relativeServer()],
      home,
      home,
    );
    expect(revoked.code, revoked.stderr).toBe(0);
    const listed = JSON.parse(
      (await runCli(['approvals', 'list', '--json-output'], home)).stdout,
    ) as { servers: Record<string, unknown> };
    expect(JSON.parse(revoked.stdout)).toEqual({
      server: expect.stringMatching(/^-- "/) as unknown,
      revoked: ['delete_note'],
    });
    expect(listed.servers).toEqual({});
  });

  it('the quoted form approvals list prints still works', async () => {
    await allowAlways();
    const listed = JSON.parse(
      (await runCli(['approvals', 'list', '--json-output'], home)).stdout,
    ) as { servers: Record<string, unknown> };
    const [key] = Object.keys(listed.servers);
    const revoked = await runCli(['approvals', 'revoke', key!, 'delete_note'], home);
    expect(revoked.stdout).toContain('Revoked "delete_note"');
  });

  it('two words before the command line are refused, naming both forms', async () => {
    const r = await runCli(['approvals', 'revoke', 'a', 'b', ...relativeServer()], home, home);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'approvals revoke <server> [<tool>], or approvals revoke [<tool>] -- <command> [args...]',
    );
  });
});

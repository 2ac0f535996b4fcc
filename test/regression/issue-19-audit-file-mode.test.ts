/**
 * Issue 19: `--audit` appended to an existing world-readable file without fixing or refusing its
 * mode, though the trail holds every call's arguments. Now a file others can read or write (or
 * that belongs to someone else, or is not a regular file) is refused with a usage error naming
 * what to do, before anything runs; the console's history file likewise. Failed before the fix:
 * the call ran and its arguments were appended to the 0644 file.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HistoryFile } from '../../src/cli/console/historyFile.js';
import { ROOT } from '../support/paths.js';
import { runCli } from '../support/terminal.js';

const home = mkdtempSync(join(tmpdir(), 'toolwire-issue19-audit-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const NOTES = ['--', process.execPath, `${ROOT}build/test/fixtures/notesServer.js`];

describe('issue 19: an audit file others can read is refused', () => {
  it.each(['0644', '0640', '0606', '0622'])('refuses mode %s, appending nothing', async (octal) => {
    const mode = parseInt(octal, 8);
    const audit = join(home, `audit-${octal}.jsonl`);
    writeFileSync(audit, 'earlier\n');
    chmodSync(audit, mode);
    const run = await runCli(
      ['call', 'delete_note', '--arg', 'id=secret', '--yes', '--audit', audit, ...NOTES],
      home,
    );
    expect(run.code).toBe(2);
    expect(run.stdout).not.toContain('deleted');
    expect(run.stderr).toContain(`--audit: ${audit} could expose what it records: others can`);
    expect(run.stderr).toContain('chmod 600');
    expect(readFileSync(audit, 'utf8')).toBe('earlier\n');
    expect(statSync(audit).mode & 0o777).toBe(mode);
  });

  it('creates a new file 0600 and appends to a 0600 one', async () => {
    const audit = join(home, 'fresh.jsonl');
    const run = await runCli(
      ['call', 'delete_note', '--arg', 'id=1', '--yes', '--audit', audit, ...NOTES],
      home,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(statSync(audit).mode & 0o777).toBe(0o600);
    expect(readFileSync(audit, 'utf8')).toContain('"call-finished"');
  });

  it("refuses the console's history file in a shape others can read, or a folder", () => {
    const shared = join(home, 'history.jsonl');
    writeFileSync(shared, '', { mode: 0o644 });
    chmodSync(shared, 0o644);
    expect(() => new HistoryFile(shared)).toThrow(/others can read it \(mode 0644\)/);
    expect(() => new HistoryFile(home)).toThrow(/cannot keep the console's history/);
  });
});

import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HistoryFile } from './historyFile.js';

const dir = mkdtempSync(join(tmpdir(), 'toolwire-history-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const server = { name: 'notes', version: '1' };
const requested = (n: number) => ({
  type: 'call-requested' as const,
  at: `2026-11-2${n}T10:00:00.000Z`,
  server,
  tool: 'delete_note',
  arguments: { id: String(n) },
});

describe("the console's history file", () => {
  it('appends one JSON line per event with its server, readable by the user only', () => {
    const path = join(dir, 'nested', 'history.jsonl');
    const file = new HistoryFile(path);
    file.append(requested(1), 'https://notes.example/mcp');
    file.append(requested(2), '-- "node" "notes.js"');
    file.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'nested')).mode & 0o777).toBe(0o700);
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(JSON.parse(lines[1]!)).toEqual({ ...requested(2), target: '-- "node" "notes.js"' });
  });

  it('reads the newest events back, passing over lines it cannot use', () => {
    const path = join(dir, 'read.jsonl');
    writeFileSync(
      path,
      [
        JSON.stringify({ ...requested(1), target: 'a' }),
        'not json',
        JSON.stringify({ type: 'call-requested' }), // no time, no server
        JSON.stringify({ ...requested(2), target: 'a' }),
        JSON.stringify({ ...requested(3), target: 'b' }),
        '{"torn": ',
      ].join('\n'),
      { mode: 0o600 },
    );
    const file = new HistoryFile(path);
    expect(file.recent(10).map((e) => e.at.slice(0, 10))).toEqual([
      '2026-11-21',
      '2026-11-22',
      '2026-11-23',
    ]);
    expect(file.recent(1)).toEqual([{ ...requested(3), target: 'b' }]);
    file.close();
  });

  it('moves the default file past its limit aside when opened, keeping one generation', () => {
    const path = join(dir, 'big.jsonl');
    writeFileSync(path, `${'x'.repeat(17 * 1024 * 1024)}\n`, { mode: 0o600 });
    const file = new HistoryFile(path, { rotate: true });
    expect(file.recent(10)).toEqual([]);
    file.append(requested(4), 'a');
    file.close();
    expect(existsSync(`${path}.1`)).toBe(true);
    expect(statSync(path).size).toBeLessThan(1024);
  });

  it('never moves an audit file the user named, and can keep one without reading it back', () => {
    const path = join(dir, 'audit.jsonl');
    writeFileSync(path, `${'x'.repeat(17 * 1024 * 1024)}\n`, { mode: 0o600 });
    new HistoryFile(path).close();
    expect(existsSync(`${path}.1`)).toBe(false);
    expect(statSync(path).size).toBeGreaterThan(16 * 1024 * 1024);

    const quiet = join(dir, 'quiet.jsonl');
    writeFileSync(quiet, `${JSON.stringify({ ...requested(1), target: 'a' })}\n`, { mode: 0o600 });
    const file = new HistoryFile(quiet, { readBack: false });
    expect(file.recent(10)).toEqual([]);
    file.append(requested(2), 'a');
    file.close();
    expect(readFileSync(quiet, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('says how to go on when the file cannot be kept', () => {
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, '');
    expect(() => new HistoryFile(join(blocker, 'history.jsonl'))).toThrow(
      /cannot keep the console's history in .*--no-history keeps none/,
    );
  });
});

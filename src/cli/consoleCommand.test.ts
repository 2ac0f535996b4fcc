import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConsole } from './consoleArgs.js';
import { exitReason, historyFileOf } from './consoleCommand.js';

describe('toolwire console', () => {
  it('says how a stdio server ended, with the last error line it wrote', () => {
    const tail =
      "node:internal/modules\n  throw err;\nError: Cannot find module '/x.js'\n  at Module\n\n";
    expect(exitReason({ code: 1, signal: null }, tail)).toBe(
      "The server exited with code 1: Error: Cannot find module '/x.js'",
    );
    expect(exitReason({ code: null, signal: 'SIGKILL' }, 'bye\n')).toBe(
      'The server was ended by SIGKILL: bye',
    );
    expect(exitReason({ code: 0, signal: null }, '')).toBe('The server exited with code 0');
  });

  it('keeps its history unless told not to, and refuses a history file with --no-history', () => {
    expect(parseConsole(['https://a.example/mcp'], undefined)).toMatchObject({
      history: true,
      audit: undefined,
    });
    expect(parseConsole(['https://a.example/mcp', '--no-history'], undefined).history).toBe(false);
    expect(() =>
      parseConsole(['https://a.example/mcp', '--no-history', '--audit', 'a.jsonl'], undefined),
    ).toThrow(/--no-history keeps none/);
  });

  it('writes the audit file config.json names even with --no-history, without showing it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolwire-console-audit-'));
    try {
      const configured = join(dir, 'audit.jsonl');
      const earlier = { type: 'call-requested', at: '2026-11-20T10:00:00.000Z', target: 'a' };
      writeFileSync(configured, `${JSON.stringify({ ...earlier, tool: 't', arguments: {} })}\n`, {
        mode: 0o600,
      });
      expect(historyFileOf({ history: false, audit: undefined }, undefined)).toBeUndefined();

      const quiet = historyFileOf({ history: false, audit: undefined }, configured);
      expect(quiet?.path).toBe(configured);
      expect(quiet?.recent(10)).toEqual([]); // --no-history: nothing earlier on the page
      quiet?.append(
        {
          type: 'call-requested',
          at: '2026-11-21T10:00:00.000Z',
          server: { name: 's', version: '1' },
          tool: 't',
          arguments: {},
        },
        'a',
      );
      quiet?.close();
      expect(readFileSync(configured, 'utf8').trim().split('\n')).toHaveLength(2);

      const named = historyFileOf({ history: true, audit: join(dir, 'x.jsonl') }, configured);
      expect(named?.path).toBe(join(dir, 'x.jsonl'));
      named?.close();
      const fromConfig = historyFileOf({ history: true, audit: undefined }, configured);
      expect(fromConfig?.recent(10)).toHaveLength(2);
      fromConfig?.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

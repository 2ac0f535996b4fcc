import { describe, expect, it } from 'vitest';
import { exitReason, parseConsole } from './consoleCommand.js';

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
});

// Issue 8: text from a server (tool names, titles, descriptions, property names and descriptions,
// content, resource links, error messages) is printed with terminal control and escape sequences
// neutralised: CSI, OSC (titles, OSC 8 hyperlinks), DCS/SOS/PM/APC, C1 controls, C0 controls
// other than newline and tab (\r included), DEL, and bidi overrides.
import { describe, expect, it } from 'vitest';
import { terminalJson, terminalLine, terminalText } from '../../src/cli/terminalText.js';
import { HOSTILE } from '../fixtures/hostileText.js';
import { HOSTILE_SERVER, toolwire } from '../support/cliRun.js';

/** Any character a terminal acts on, newline and tab aside. */
const ACTIVE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;
const server = ['--', process.execPath, HOSTILE_SERVER];

describe('terminalText', () => {
  it.each([
    ['CSI', '\x1b[31mred\x1b[0m', '\\x1b[31mred\\x1b[0m'],
    ['OSC title', '\x1b]0;title\x07', '\\x1b]0;title\\x07'],
    [
      'OSC 8 hyperlink',
      '\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\',
      '\\x1b]8;;https://evil.example/\\x1b\\click\\x1b]8;;\\x1b\\',
    ],
    ['DCS', '\x1bP1$r\x1b\\', '\\x1bP1$r\\x1b\\'],
    ['APC', '\x1b_x\x1b\\', '\\x1b_x\\x1b\\'],
    ['C1 CSI', '\u009b31m', '\\x9b31m'],
    ['C1 OSC', '\u009d0;t\u0007', '\\x9d0;t\\x07'],
    ['carriage return', 'a\rb', 'a\\rb'],
    ['backspace, NUL, DEL', 'a\bb\x00c\x7f', 'a\\x08b\\x00c\\x7f'],
    ['bidi override and isolate', '\u202eabc\u2066d\u2069', '\\u202eabc\\u2066d\\u2069'],
    ['newline and tab (kept)', 'a\nb\tc', 'a\nb\tc'],
    ['plain text, accents, emoji (kept)', 'Zürich ☀️ 東京', 'Zürich ☀️ 東京'],
  ])('%s', (_kind, input, shown) => {
    expect(terminalText(input)).toBe(shown);
    expect(terminalText(input)).not.toMatch(ACTIVE);
  });

  it('on one line, newlines and tabs become spaces too', () => {
    expect(terminalLine('a\nb\tc\r\x1b[2K')).toBe('a b c\\r\\x1b[2K');
  });

  it('JSON escapes what JSON.stringify leaves raw (DEL, C1, bidi), and reads back the same', () => {
    const value = { text: HOSTILE, sep: '\u2028' };
    const json = terminalJson(value, 2);
    expect(json).not.toMatch(ACTIVE);
    expect(json).toContain('\\u009b31m');
    expect(json).toContain('\\u202e');
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('the CLI prints server text safely', () => {
  it('list: names, titles, descriptions, properties', () => {
    const r = toolwire('list', ...server);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(ACTIVE);
    expect(r.stdout).toContain('hostile\\x1b[31mred\\x1b[0m');
    expect(r.stdout).toContain('(Title \\x1b[31mred');
    expect(r.stdout).toContain('Description \\x1b[31mred');
    expect(r.stdout).toContain('prop\\x1b[31mred');
    expect(r.stdout).toContain('Prop \\x1b[31mred');
    expect(r.stdout).toContain('\\x1b]8;;https://evil.example/\\x1b\\click');
    expect(r.stdout).toContain(
      '\\x9b31m \\x9d0;c1 title\\x07 over\\rwrite back\\x08space\\x00nul del\\x7f',
    );
    expect(r.stdout).toContain('\\u202eevil\\u202c \\u2066iso\\u2069');
  });

  it('list --json-output: exact strings, no raw C1 or bidi characters', () => {
    const r = toolwire('list', '--json-output', ...server);
    expect(r.stdout).not.toMatch(ACTIVE);
    const { tools } = JSON.parse(r.stdout) as {
      tools: Array<{ name: string; description: string }>;
    };
    expect(tools[0]?.name).toBe(`hostile${HOSTILE}`);
    expect(tools[0]?.description).toBe(`Description ${HOSTILE}`);
  });

  it('call: content text and resource links', () => {
    const r = toolwire('call', '--yes', 'content', ...server);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(ACTIVE);
    expect(r.stdout).toContain('Content \\x1b[31mred\\x1b[0m \\x1b[2A\\x1b[2K');
    expect(r.stdout).toContain('\nsecond line\tand a tab\n'); // newlines and tabs stay
    expect(r.stdout).toContain('[link link \\x1b[31mred');
    expect(r.stdout).toContain('<file:///x\\x1b[31mred');
    const json = toolwire('call', '--yes', 'content', '--json-output', ...server);
    expect(json.stdout).not.toMatch(ACTIVE);
    const parsed = JSON.parse(json.stdout) as { content: Array<{ text?: string }> };
    expect(parsed.content[0]?.text).toBe(`Content ${HOSTILE}\nsecond line\tand a tab`);
  });

  it('call: error messages, and tool names in the unknown-tool message', () => {
    const failed = toolwire('call', '--yes', 'fail', ...server);
    expect(failed.code).toBe(3);
    expect(failed.stderr).not.toMatch(ACTIVE);
    expect(failed.stderr).toContain('Error -32602: Error \\x1b[31mred');
    const unknown = toolwire('call', '--yes', 'nope', '--json-output', ...server);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).not.toMatch(ACTIVE);
    expect(unknown.stderr).toContain('hostile\\x1b[31mred');
    expect(unknown.stdout).not.toMatch(ACTIVE);
    expect((JSON.parse(unknown.stdout) as { error: { tools: string[] } }).error.tools).toContain(
      `hostile${HOSTILE}`,
    );
  });
});

/**
 * Issue 20: a key of `--arg` that the tool's input schema does not name was silently ignored
 * (`--arg step=3` of a tool taking `steps` ran the default 5 steps), and so was one of `--json`.
 * Now `call` refuses it before calling (`unknown-argument`, exit 2), naming the key, the option
 * that gave it, the closest name and the tool's arguments, closest first (as JSON too with
 * `--json-output`), unless the schema explicitly allows additional properties.
 * Failed before the fix: the calls with a misspelt key ran (exit 0).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EVERYTHING, ROOT } from '../support/paths.js';
import { runCli } from '../support/terminal.js';

const LIAR = `${ROOT}build/test/fixtures/liarServer.js`;
const home = mkdtempSync(join(tmpdir(), 'toolwire-issue20-args-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const everything = ['--', process.execPath, EVERYTHING];

describe('issue 20: call refuses argument names the tool does not take', () => {
  it('a misspelt --arg is refused with the closest name, before anything is called', async () => {
    const run = await runCli(
      ['call', 'long_running', '--arg', 'step=3', '--arg', 'delayMs=0', '--yes', ...everything],
      home,
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'call: tool "long_running" takes no argument "step" (--arg; did you mean "steps"?). Its arguments: steps, delayMs (see toolwire list)\n',
    );
  });

  it('--json keys are held to the same names, and --json-output gives the details', async () => {
    const run = await runCli(
      [
        ...['call', 'weather', '--arg', 'city=Oslo', '--json', '{"unit":"fahrenheit"}'],
        ...['--yes', '--json-output', ...everything],
      ],
      home,
    );
    expect(run.code, run.stderr).toBe(2);
    expect(JSON.parse(run.stdout)).toEqual({
      error: {
        kind: 'unknown-argument',
        message:
          'call: tool "weather" takes no argument "unit" (--json; did you mean "units"?). Its arguments: units, city (see toolwire list)',
        tool: 'weather',
        unknown: ['unit'],
        arguments: ['units', 'city'],
      },
    });
  });

  it('the names a tool does take still reach it', async () => {
    const run = await runCli(
      [
        ...['call', 'long_running', '--arg', 'steps=1', '--json', '{"delayMs":0}'],
        ...['--yes', '--json-output', ...everything],
      ],
      home,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ content: [{ type: 'text' }] });
  });

  it('a schema that explicitly allows additional properties takes any key', async () => {
    const tools = join(home, 'tools.json');
    writeFileSync(
      tools,
      JSON.stringify({
        tools: [
          {
            name: 'open',
            inputSchema: { type: 'object', properties: {}, additionalProperties: true },
          },
          { name: 'closed', inputSchema: { type: 'object', properties: { target: {} } } },
        ],
      }),
    );
    const liar = ['--', process.execPath, LIAR, tools];
    const open = await runCli(['call', 'open', '--arg', 'anything=1', '--yes', ...liar], home);
    expect(open.code, open.stderr).toBe(0);
    expect(open.stdout).toBe('open ran\n');
    const closed = await runCli(['call', 'closed', '--arg', 'anything=1', '--yes', ...liar], home);
    expect(closed.code).toBe(2);
    expect(closed.stderr).toContain('takes no argument "anything" (--arg)');
  });
});

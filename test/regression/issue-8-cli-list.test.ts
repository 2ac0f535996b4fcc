// Issue 8: `list` marks each tool's behaviour plainly (destructive when the hint is true or absent,
// as the spec assumes; read-only; idempotent; open-world), says the hints are untrusted, and shows
// whether the tool has an output schema and its task support.
import { describe, expect, it } from 'vitest';
import type { Tool } from '../../src/index.js';
import { behaviourOf, renderTool } from '../../src/cli/render.js';
import { toolwire } from '../support/cliRun.js';
import { EVERYTHING } from '../support/paths.js';

const tool = (extra: Partial<Tool>): Tool => ({
  name: 't',
  inputSchema: { type: 'object' },
  ...extra,
});

describe('behaviour marks', () => {
  it.each([
    [{}, ['destructive', 'not idempotent', 'open-world']], // spec defaults: absent means possibly destructive
    [{ destructiveHint: true }, ['destructive', 'not idempotent', 'open-world']],
    [
      { destructiveHint: false, idempotentHint: true },
      ['non-destructive', 'idempotent', 'open-world'],
    ],
    [
      { readOnlyHint: true, destructiveHint: true, idempotentHint: true },
      ['read-only', 'open-world'],
    ], // the rest means nothing for a read-only tool
    [
      { readOnlyHint: false, openWorldHint: false },
      ['destructive', 'not idempotent', 'closed-world'],
    ],
  ])('%j', (annotations, marks) => {
    expect(behaviourOf(tool({ annotations }))).toEqual(marks);
  });

  it('a tool without annotations gets the same marks as one with every hint absent', () => {
    expect(behaviourOf(tool({}))).toEqual(behaviourOf(tool({ annotations: {} })));
  });

  it('renders the marks, output schema and task support', () => {
    expect(
      renderTool(
        tool({
          title: 'Title',
          description: 'Does\n  things',
          annotations: { readOnlyHint: true },
          outputSchema: { type: 'object' },
          execution: { taskSupport: 'optional' },
        }),
      ),
    ).toBe(
      [
        't (Title)',
        '  Does things',
        '  behaviour (hints, untrusted): read-only, open-world',
        '  output schema: yes; task: optional',
      ].join('\n'),
    );
    expect(renderTool(tool({}))).toBe(
      [
        't',
        '  behaviour (hints, untrusted): destructive, not idempotent, open-world',
        '  output schema: no; task: forbidden',
      ].join('\n'),
    );
  });
});

describe('toolwire list', () => {
  it('marks every tool of the everything server', () => {
    // A 2025 session: its tools carry their task support (2026 tools have none).
    const r = toolwire('list', '--era', 'legacy', '--', process.execPath, EVERYTHING);
    expect(r.code).toBe(0);
    const blocks = r.stdout.trim().split('\n\n');
    expect(blocks.length).toBeGreaterThan(10);
    for (const block of blocks) {
      expect(block).toMatch(
        /\n {2}behaviour \(hints, untrusted\): (read-only|(non-)?destructive, (not )?idempotent), (open|closed)-world\n/,
      );
      expect(block).toMatch(/\n {2}output schema: (yes|no); task: (forbidden|optional|required)$/);
    }
    const block = (name: string) =>
      blocks.find((b) => b.startsWith(`${name} `) || b.startsWith(`${name}\n`));
    expect(block('echo')).toContain('read-only, closed-world');
    expect(block('echo')).toContain('output schema: no; task: forbidden');
    expect(block('add')).toContain('output schema: yes');
    expect(block('report')).toContain('task: required');
    expect(block('long_running')).toContain('task: optional');
    expect(block('sample_image')).toContain('destructive, not idempotent, open-world');
  });

  it('says on 2026-07-28 that the server decides which calls run as tasks (its tools do not say)', () => {
    const r = toolwire('list', '--', process.execPath, EVERYTHING);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('protocol 2026-07-28');
    const blocks = r.stdout.trim().split('\n\n').slice(0, -1);
    expect(blocks.length).toBeGreaterThan(10);
    for (const block of blocks)
      expect(block).toMatch(/; task: the server decides \(tasks extension\)$/);
  });
});

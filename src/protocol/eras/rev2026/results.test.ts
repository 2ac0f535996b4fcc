import { describe, expect, it } from 'vitest';
import { parseDiscoverResult } from './discover.js';
import { checkResultType } from './resultType.js';

describe('results of the stateless revision', () => {
  it('an absent resultType is complete; an unknown one is refused', () => {
    expect(checkResultType({}, 'tools/call')).toBe('complete');
    expect(checkResultType({ resultType: 'input_required' }, 'tools/call')).toBe('input_required');
    expect(() => checkResultType({ resultType: 'task' }, 'tools/call')).toThrow(
      /resultType this client does not know: "task"/,
    );
  });

  it('reads server/discover, and refuses one without versions or capabilities', () => {
    expect(
      parseDiscoverResult({
        resultType: 'complete',
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {} },
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } },
      }),
    ).toEqual({
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {} },
      serverInfo: { name: 's', version: '1' },
      instructions: undefined,
    });
    expect(() => parseDiscoverResult({ capabilities: {} })).toThrow(/supportedVersions/);
    expect(() => parseDiscoverResult({ supportedVersions: [] })).toThrow(/capabilities/);
  });
});

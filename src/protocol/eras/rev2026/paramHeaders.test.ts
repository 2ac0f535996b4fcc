import { describe, expect, it } from 'vitest';
import type { Tool } from '../../types.js';
import { paramHeadersOf, paramHeaderValues } from './paramHeaders.js';

const tool = (properties: Record<string, unknown>): Tool => ({
  name: 't',
  inputSchema: { type: 'object', properties },
});

describe('x-mcp-header annotations', () => {
  it('finds them through properties, nested too, with their paths', () => {
    expect(
      paramHeadersOf(
        tool({
          region: { type: 'string', 'x-mcp-header': 'Region' },
          opts: { type: 'object', properties: { n: { type: 'integer', 'x-mcp-header': 'N' } } },
          plain: { type: 'string' },
        }),
      ),
    ).toEqual({
      headers: [
        { name: 'Region', path: ['region'] },
        { name: 'N', path: ['opts', 'n'] },
      ],
    });
  });

  it.each([
    [{ a: { type: 'number', 'x-mcp-header': 'A' } }, /not a string, integer or boolean/],
    [{ a: { type: 'string', 'x-mcp-header': 'Bad Name' } }, /not a header name/],
    [
      {
        a: { type: 'string', 'x-mcp-header': 'Dup' },
        b: { type: 'string', 'x-mcp-header': 'dup' },
      },
      /declared twice/,
    ],
    [
      { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } },
      /not statically reachable/,
    ],
    [{ pick: { anyOf: [{ type: 'string', 'x-mcp-header': 'Pick' }] } }, /not statically reachable/],
  ])('makes a tool unusable when invalid: %j', (properties, problem) => {
    const found = paramHeadersOf(tool(properties));
    expect('problem' in found && found.problem).toMatch(problem);
  });

  it('sends strings, integers and booleans, and nothing for an absent argument', () => {
    const headers = [
      { name: 'Region', path: ['region'] },
      { name: 'N', path: ['opts', 'n'] },
      { name: 'On', path: ['on'] },
      { name: 'Gone', path: ['gone'] },
    ];
    expect(
      paramHeaderValues(headers, { region: 'eu', opts: { n: 7 }, on: false, gone: null }),
    ).toEqual({ 'mcp-param-region': 'eu', 'mcp-param-n': '7', 'mcp-param-on': 'false' });
    // An integer beyond JavaScript's safe range has no exact header.
    expect(paramHeaderValues([{ name: 'N', path: ['n'] }], { n: 2 ** 53 })).toEqual({});
  });
});

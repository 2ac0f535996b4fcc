import { describe, expect, it } from 'vitest';
import { bearerChallenge, bearerCredential, safeDescription } from './bearer.js';

describe('bearerCredential', () => {
  it('reads one token, whatever the case of the scheme', () => {
    for (const header of ['Bearer abc.DEF-_~+/=', 'bearer abc.DEF-_~+/=', 'BEARER  abc.DEF-_~+/= '])
      expect(bearerCredential(header)).toEqual({ kind: 'token', token: 'abc.DEF-_~+/=' });
  });

  it('sees no Bearer token without the header or with another scheme', () => {
    expect(bearerCredential(null)).toEqual({ kind: 'none' });
    expect(bearerCredential('Basic YTpi')).toEqual({ kind: 'none' });
    expect(bearerCredential('')).toEqual({ kind: 'none' });
  });

  it('calls anything but exactly one well-formed token malformed', () => {
    for (const header of [
      'Bearer',
      'Bearer ',
      'Bearer a b',
      'Bearer a"b',
      'Bearer a=b',
      'Bearer a, Bearer b',
      'Basic x, Bearer y',
    ])
      expect(bearerCredential(header).kind, header).toBe('malformed');
    expect(bearerCredential('Bearer a, Bearer b')).toMatchObject({
      why: 'Send exactly one Authorization header with one Bearer token',
    });
  });
});

describe('bearerChallenge', () => {
  it('quotes every value, escaping quotes and backslashes, and leaves out empty ones', () => {
    expect(
      bearerChallenge([
        ['error', 'invalid_token'],
        ['error_description', 'a "quoted" \\ word'],
        ['scope', undefined],
        ['resource_metadata', ''],
      ]),
    ).toBe('Bearer error="invalid_token", error_description="a \\"quoted\\" \\\\ word"');
    expect(bearerChallenge([])).toBe('Bearer');
  });

  it('keeps descriptions within the characters RFC 6750 allows, and short', () => {
    expect(safeDescription('line\r\nbreak "é" \\ \u0000end')).toBe('line  break        end');
    expect(safeDescription('x'.repeat(500))).toHaveLength(200);
  });
});

import { describe, expect, it } from 'vitest';
import { bearerChallenge } from './wwwAuthenticate.js';

const params = (header: string | null) => Object.fromEntries(bearerChallenge(header) ?? []);

describe('bearerChallenge', () => {
  it('reads quoted and token parameters, names lowercased, escapes undone', () => {
    expect(
      params(
        'Bearer resource_metadata="https://h/.well-known/oauth-protected-resource/mcp", ' +
          'Scope="a b", error=insufficient_scope, error_description="say \\"more\\""',
      ),
    ).toEqual({
      resource_metadata: 'https://h/.well-known/oauth-protected-resource/mcp',
      scope: 'a b',
      error: 'insufficient_scope',
      error_description: 'say "more"',
    });
  });

  it('finds the Bearer challenge among others, whatever the case of the scheme', () => {
    expect(params('Basic realm="x", DPoP algs="ES256", bearer scope="s", realm="r"')).toEqual({
      scope: 's',
      realm: 'r',
    });
    expect(params('Basic dXNlcjpwYXNz, Bearer scope="s"')).toEqual({ scope: 's' });
  });

  it('a bare Bearer has no parameters; none, or another scheme only, is undefined', () => {
    expect(bearerChallenge('Bearer')?.size).toBe(0);
    expect(bearerChallenge(null)).toBeUndefined();
    expect(bearerChallenge('Basic realm="x"')).toBeUndefined();
  });

  it('stops at what it cannot parse, keeping what came before', () => {
    expect(params('Bearer scope="a", error="unterminated')).toEqual({ scope: 'a' });
  });
});

import { describe, expect, it } from 'vitest';
import { selectScope } from './scopeSelection.js';

const none = {
  configured: undefined,
  challenged: undefined,
  resourceScopes: undefined,
  held: undefined,
  serverScopes: undefined,
  offlineAccess: true,
};

describe('selectScope', () => {
  it('the challenge first, else scopes_supported, else none', () => {
    expect(selectScope({ ...none, challenged: 'a', resourceScopes: ['b', 'c'] })).toBe('a');
    expect(selectScope({ ...none, resourceScopes: ['b', 'c'] })).toBe('b c');
    expect(selectScope(none)).toBeUndefined();
  });

  it("the application's scopes win over both", () => {
    expect(selectScope({ ...none, configured: ['x'], challenged: 'a' })).toBe('x');
  });

  it('a step-up asks for the union of held and challenged scopes', () => {
    expect(selectScope({ ...none, challenged: 'write', held: 'read write' })).toBe('write read');
  });

  it('offline_access only when the authorization server lists it', () => {
    expect(selectScope({ ...none, challenged: 'a', serverScopes: ['a', 'offline_access'] })).toBe(
      'a offline_access',
    );
    expect(selectScope({ ...none, challenged: 'a offline_access', serverScopes: ['a'] })).toBe('a');
    expect(
      selectScope({
        ...none,
        challenged: 'a',
        serverScopes: ['offline_access'],
        offlineAccess: false,
      }),
    ).toBe('a');
  });
});

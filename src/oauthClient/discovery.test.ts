import { describe, expect, it } from 'vitest';
import {
  authorizationServerMetadataUrls,
  resourceCovers,
  resourceMetadataUrls,
} from './discovery.js';

const hrefs = (urls: URL[]) => urls.map((u) => u.href);

describe('discovery URLs, in the spec order', () => {
  it('resource metadata: the challenge, then path-inserted, then root', () => {
    expect(hrefs(resourceMetadataUrls(new URL('https://h/api/mcp'), 'https://h/prm'))).toEqual([
      'https://h/prm',
      'https://h/.well-known/oauth-protected-resource/api/mcp',
      'https://h/.well-known/oauth-protected-resource',
    ]);
    expect(hrefs(resourceMetadataUrls(new URL('https://h/'), undefined))).toEqual([
      'https://h/.well-known/oauth-protected-resource',
    ]);
  });

  it('authorization server metadata with a path: RFC 8414, OIDC inserted, OIDC appended', () => {
    expect(hrefs(authorizationServerMetadataUrls(new URL('https://as/tenant1')))).toEqual([
      'https://as/.well-known/oauth-authorization-server/tenant1',
      'https://as/.well-known/openid-configuration/tenant1',
      'https://as/tenant1/.well-known/openid-configuration',
    ]);
  });

  it('authorization server metadata without a path: RFC 8414, then OIDC', () => {
    expect(hrefs(authorizationServerMetadataUrls(new URL('https://as')))).toEqual([
      'https://as/.well-known/oauth-authorization-server',
      'https://as/.well-known/openid-configuration',
    ]);
  });

  it('a resource covers its own URL and the paths below it, on its origin only', () => {
    const endpoint = new URL('https://h/mcp');
    expect(resourceCovers('https://h/mcp', endpoint)).toBe(true);
    expect(resourceCovers('https://h/', endpoint)).toBe(true);
    expect(resourceCovers('https://h/mcp/', endpoint)).toBe(true);
    expect(resourceCovers('https://h/mc', endpoint)).toBe(false);
    expect(resourceCovers('https://h/other', endpoint)).toBe(false);
    expect(resourceCovers('https://h:8443/mcp', endpoint)).toBe(false);
    expect(resourceCovers('http://h/mcp', endpoint)).toBe(false);
    expect(resourceCovers('not a url', endpoint)).toBe(false);
  });
});

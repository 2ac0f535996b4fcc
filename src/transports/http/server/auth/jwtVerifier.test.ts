/**
 * `jose` is an optional peer dependency: when it is missing, the JWT verifier says how to install
 * it and answers "unavailable" (503: the token could not be checked, rather than "invalid").
 * That the built library imports it only dynamically: test/regression/issue-11-lazy-jose.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('jose');
  vi.resetModules();
});

describe('jose', () => {
  it('missing: the verifier says how to install it and answers "unavailable"', async () => {
    vi.resetModules();
    vi.doMock('jose', () => {
      throw new Error("Cannot find package 'jose'");
    });
    const { jwtVerifier } = await import('./jwtVerifier.js');
    const verifier = jwtVerifier({
      jwksUrl: 'https://as.example/jwks',
      issuer: 'https://as.example',
    });
    await expect(verifier.ready).rejects.toThrow(
      'Verifying JWT access tokens needs the "jose" package (an optional peer dependency of toolwire): npm install jose',
    );
    const faults: unknown[] = [];
    const verdict = await verifier('a.b.c', {
      resource: 'https://mcp.example.com/mcp',
      report: (e) => faults.push(e),
    });
    expect(verdict).toEqual({
      ok: false,
      reason: 'Access tokens cannot be verified on this server now',
      unavailable: true,
    });
    expect(String(faults[0])).toContain('npm install jose');
  });
});

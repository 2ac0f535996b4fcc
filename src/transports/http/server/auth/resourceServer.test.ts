/**
 * The `oauth` option checked at start, and the resource server with a verifier function of the
 * application's (the third kind of verifier): scope hierarchies, failing and unavailable
 * verifiers, expired identities. The verifiers of a real authorization server are tested in
 * test/integration/oauth.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createHttpHandler, introspectionVerifier, jwtVerifier } from '../../../../http.js';
import type { OAuthOptions } from '../../../../http.js';
import { McpServer } from '../../../../server.js';
import { audienceMatches, canonicalUri, type TokenVerifier } from './tokenVerifier.js';

const RESOURCE = 'https://mcp.example.com/mcp';
const accept: TokenVerifier = () => ({ ok: true, identity: { id: 'x', scopes: ['mcp'] } });

function handlerOf(oauth: Partial<OAuthOptions>, onerror: (e: unknown) => void = () => {}) {
  const server = new McpServer({ name: 'rs', version: '1' });
  server.registerTool('open', {}, () => 'open');
  server.registerTool('deep', { scopes: ['c'] }, () => 'deep');
  return createHttpHandler(server, {
    onerror,
    origins: { allowedHosts: ['mcp.example.com', 'x.example'] },
    stateless: true,
    oauth: {
      resource: RESOURCE,
      authorizationServers: ['https://as.example'],
      verifier: accept,
      ...oauth,
    },
  });
}

function request(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  return new Request(`https://mcp.example.com${path}`, {
    method: 'POST',
    ...init,
    headers: {
      host: 'mcp.example.com',
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      authorization: 'Bearer t0ken',
      ...init.headers,
    },
  });
}

const call = (name: string) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } });

describe('the oauth option is checked at start', () => {
  const problem = (oauth: Partial<OAuthOptions>) => {
    try {
      handlerOf(oauth);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('refuses resources and authorization servers a client would refuse', () => {
    expect(problem({ resource: 'mcp.example.com' })).toMatch(/not an absolute URL/);
    expect(problem({ resource: 'http://mcp.example.com/mcp' })).toMatch(/must be an https URL/);
    expect(problem({ resource: 'http://127.0.0.1:3000/mcp' })).toMatch(/allowLoopbackHttp/);
    expect(
      problem({ resource: 'http://127.0.0.1:3000/mcp', allowLoopbackHttp: true }),
    ).toBeUndefined();
    expect(problem({ resource: `${RESOURCE}#frag` })).toMatch(/fragment/);
    expect(problem({ resource: `${RESOURCE}?a=1` })).toMatch(/query/);
    expect(problem({ authorizationServers: [] })).toMatch(/at least one/);
    expect(problem({ authorizationServers: ['http://as.example'] })).toMatch(/https/);
    expect(problem({ verifier: undefined })).toMatch(/verifier/);
  });

  it('refuses bad scopes, offline_access and members it owns', () => {
    expect(problem({ scopes: ['offline_access'] })).toMatch(/offline_access/);
    expect(problem({ scopesSupported: ['a b'] })).toMatch(/RFC 6749/);
    expect(problem({ scopeHierarchy: { a: ['offline_access'] } })).toMatch(/offline_access/);
    expect(problem({ metadata: { resource: 'https://evil.example' } })).toMatch(
      /metadata.resource/,
    );
  });

  it('refuses oauth together with authenticate', () => {
    const server = new McpServer({ name: 'rs', version: '1' });
    expect(() =>
      createHttpHandler(server, {
        authenticate: () => undefined,
        oauth: {
          resource: RESOURCE,
          authorizationServers: ['https://as.example'],
          verifier: accept,
        },
      }),
    ).toThrow('Give either oauth or authenticate, not both');
  });

  it('refuses verifier options that would weaken verification', () => {
    const jwt = { jwksUrl: 'https://as.example/jwks', issuer: 'https://as.example' };
    expect(() => jwtVerifier({ ...jwt, algorithms: ['HS256'] })).toThrow(/HS256.*refused/);
    expect(() => jwtVerifier({ ...jwt, algorithms: ['none'] })).toThrow(/refused/);
    expect(() => jwtVerifier({ ...jwt, jwksUrl: 'http://as.example/jwks' })).toThrow(/https/);
    expect(() => jwtVerifier({ ...jwt, issuer: '' })).toThrow(/issuer/);
    expect(() => jwtVerifier({ ...jwt, clockSkewSeconds: -1 })).toThrow(/clockSkewSeconds/);
    const introspection = {
      endpoint: 'https://as.example/introspect',
      clientId: 'rs',
      clientSecret: 's',
      issuer: 'https://as.example',
    };
    expect(() => introspectionVerifier({ ...introspection, clientSecret: '' })).toThrow(
      /clientSecret/,
    );
    expect(() =>
      introspectionVerifier({ ...introspection, endpoint: 'http://127.0.0.1/i' }),
    ).toThrow(/allowLoopbackHttp/);
  });
});

describe('the metadata document', () => {
  it('names the canonical resource and is served at the path-inserted and root URIs', async () => {
    const handler = handlerOf({ resource: 'HTTPS://MCP.Example.com:443/mcp' });
    for (const path of [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]) {
      const response = await handler.fetch(new Request(`https://elsewhere.example${path}`));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        resource: RESOURCE,
        authorization_servers: ['https://as.example'],
        bearer_methods_supported: ['header'],
      });
    }
    const head = await handler.fetch(
      new Request('https://x.example/.well-known/oauth-protected-resource', { method: 'HEAD' }),
    );
    expect(head.status).toBe(200);
    const elsewhere = await handler.fetch(
      new Request('https://x.example/.well-known/oauth-protected-resource/other'),
    );
    expect(elsewhere.status).toBe(404);
  });
});

describe('a verifier function of the application', () => {
  it('gets scopes implied by broader ones (transitively)', async () => {
    const handler = handlerOf({
      verifier: () => ({ ok: true, identity: { id: 'x', scopes: ['a'] } }),
      scopeHierarchy: { a: ['b'], b: ['c'] },
    });
    const response = await handler.fetch(request('/mcp', { body: call('deep') }));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ result: { content: [{ text: 'deep' }] } });
  });

  it('that throws, or cannot check now, makes a 503 with Retry-After; the fault is reported', async () => {
    const faults: unknown[] = [];
    const broken = handlerOf(
      {
        verifier: () => {
          throw new Error('verifier bug');
        },
      },
      (e) => faults.push(e),
    );
    const response = await broken.fetch(request('/mcp', { body: call('open') }));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(faults).toEqual([new Error('verifier bug')]);
    const away = handlerOf({
      verifier: async () => ({ ok: false, reason: 'AS down', unavailable: true }),
    });
    const later = await away.fetch(request('/mcp', { body: call('open') }));
    expect(later.status).toBe(503);
    expect(await later.json()).toMatchObject({ error: { message: 'AS down' } });
  });

  it('whose identity has expired is refused, and its reason is made safe for the header', async () => {
    const expired = handlerOf({
      verifier: () => ({ ok: true, identity: { id: 'x', expiresAt: Date.now() - 1 } }),
    });
    const response = await expired.fetch(request('/mcp', { body: call('open') }));
    expect(response.status).toBe(401);
    const refusing = handlerOf({
      verifier: () => ({ ok: false, reason: 'bad\r\nInjected: yes "x"' }),
    });
    const refused = await refusing.fetch(request('/mcp', { body: call('open') }));
    expect(refused.headers.get('www-authenticate')).toBe(
      'Bearer error="invalid_token", error_description="bad  Injected: yes  x", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
    );
  });
});

describe('audiences', () => {
  it('compare in canonical form', () => {
    expect(canonicalUri('HTTPS://MCP.Example.COM:443/')).toBe('https://mcp.example.com');
    expect(canonicalUri('https://mcp.example.com/mcp/')).toBe('https://mcp.example.com/mcp/');
    expect(canonicalUri('6e1f2c1a-0000-4000-8000-000000000000')).toBe(
      '6e1f2c1a-0000-4000-8000-000000000000',
    );
    const accepted = [canonicalUri(RESOURCE)];
    expect(audienceMatches('https://MCP.example.com/mcp', accepted)).toBe(true);
    expect(audienceMatches(['https://other.example', RESOURCE], accepted)).toBe(true);
    expect(audienceMatches(['https://other.example'], accepted)).toBe(false);
    expect(audienceMatches(undefined, accepted)).toBe(false);
    expect(audienceMatches(`${RESOURCE}/sub`, accepted)).toBe(false);
  });
});

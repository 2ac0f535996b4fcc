/**
 * Issue 12: what a hostile or compromised server can try on toolwire's OAuth client, and the
 * refusal each meets (RELIABILITY.md, the authorization spec's security considerations): metadata
 * and redirects pointing at link-local, private or loopback addresses; host names resolving to
 * them; `javascript:` and `file:` authorization URLs; a forged or foreign `iss`; a forged
 * `state`; metadata for another resource or issuer; no PKCE S256; a token endpoint answering an
 * enormous body; and a server that asks for more scope forever.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import {
  HttpClientTransport,
  MemoryOAuthStore,
  OAuthClient,
  type OAuthClientOptions,
} from '../../src/http.js';
import {
  headlessBrowser,
  mcpAnswer,
  startFakeOAuth,
  type FakeOAuth,
} from '../support/fakeOAuth.js';

let fake: FakeOAuth;
beforeEach(async () => {
  fake = await startFakeOAuth();
});
afterEach(async () => {
  await fake.close();
});

/** Connects through an OAuth client with the headless browser; resolves with the failure. */
async function connectFailure(options: Partial<OAuthClientOptions> = {}) {
  const browser = headlessBrowser();
  const oauth = new OAuthClient({
    allowLoopbackHttp: true,
    openAuthorizationUrl: browser.open,
    redirectReceiver: browser.receiver,
    authorizationTimeoutMs: 5_000,
    ...options,
  });
  const client = new McpClient({ name: 'attacked', version: '1' }, { protocolEra: 'legacy' });
  const error = await client.connect(new HttpClientTransport(fake.endpoint, { auth: oauth })).then(
    () => undefined,
    (e: unknown) => e,
  );
  await client.close().catch(() => {});
  return { error, opened: browser.opened };
}

function metadataWith(changes: Record<string, unknown>) {
  const base = fake.script.serverMetadata() as Record<string, unknown>;
  fake.script.serverMetadata = () => ({ ...base, ...changes });
}

describe('issue 12: the OAuth client refuses what a hostile server points it at', () => {
  it('is authorized by the fake when nothing is wrong (the baseline of the refusals below)', async () => {
    const { error, opened } = await connectFailure();
    expect(error).toBeUndefined();
    expect(opened).toHaveLength(1);
    expect(fake.requestsTo('/token')).toHaveLength(1);
  });

  it.each([
    ['link-local (the cloud metadata service)', 'https://169.254.169.254/latest', /link-local/],
    ['private', 'https://10.0.0.1/', /private address \(10\.0\.0\.1\)/],
    ['private IPv6', 'https://[fd00::1]/', /private/],
    ['IPv4-mapped link-local', 'https://[::ffff:169.254.169.254]/', /link-local/],
  ])('an authorization server on a %s address is never fetched', async (_kind, issuer, message) => {
    fake.script.resourceMetadata = () => ({
      resource: fake.endpoint,
      authorization_servers: [issuer],
    });
    const { error } = await connectFailure();
    expect(error).toMatchObject({ code: 'authorization', reason: 'forbidden_address' });
    expect((error as Error).message).toMatch(message);
  });

  it('a loopback authorization server needs the application to allow loopback', async () => {
    const { error } = await connectFailure({
      allowLoopbackHttp: false,
      allowPrivateNetwork: false,
    });
    // The fake itself is on 127.0.0.1 over http: refused before anything is fetched from it.
    expect(error).toMatchObject({ reason: 'insecure_url' });
    expect(fake.requestsTo('/.well-known/oauth-protected-resource/mcp')).toHaveLength(0);
  });

  it('a host name resolving to a private address is refused', async () => {
    fake.script.resourceMetadata = () => ({
      resource: fake.endpoint,
      authorization_servers: ['https://auth.internal.example'],
    });
    const { error } = await connectFailure({
      resolveHost: async (host) => (host === 'auth.internal.example' ? ['192.168.1.20'] : []),
    });
    expect(error).toMatchObject({ reason: 'forbidden_address' });
    expect((error as Error).message).toContain('192.168.1.20');
  });

  it('a metadata redirect to a private address is refused at that hop', async () => {
    fake.script.resourceMetadata = () => ({
      resource: fake.endpoint,
      authorization_servers: [`${fake.origin}/hop`],
    });
    // The path-inserted metadata URL of that issuer redirects into the private network.
    const { error } = await connectFailure({
      fetch: async (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        if (url.pathname === '/.well-known/oauth-authorization-server/hop')
          return new Response(null, {
            status: 302,
            headers: { location: 'http://192.168.0.1/metadata' },
          });
        return fetch(input, init);
      },
    });
    expect(error).toMatchObject({ reason: 'insecure_url' });
    expect((error as Error).message).toContain('192.168.0.1');
  });

  it.each([
    ['javascript:alert(document.cookie)'],
    ['file:///etc/passwd'],
    ['http://example.com/authorize'],
  ])('an authorization endpoint %s is never opened', async (endpoint) => {
    metadataWith({ authorization_endpoint: endpoint });
    const { error, opened } = await connectFailure();
    expect(error).toMatchObject({ reason: 'insecure_url' });
    expect(opened).toEqual([]);
  });

  it.each<[string, Record<string, string> | 'slash', string]>([
    ['a foreign iss', { iss: 'https://evil.example.com' }, 'issuer_mismatch'],
    ['an iss differing only by a trailing slash', 'slash', 'issuer_mismatch'],
    ['a forged state', { state: 'forged' }, 'state_mismatch'],
  ])(
    'a redirect with %s is refused, and its code never redeemed',
    async (_what, change, reason) => {
      const authorize = fake.script.authorize;
      fake.script.authorize = (query) => ({
        ...authorize(query),
        ...(change === 'slash' ? { iss: `${fake.origin}/` } : change),
      });
      const { error } = await connectFailure();
      expect(error).toMatchObject({ reason });
      expect(fake.requestsTo('/token')).toHaveLength(0);
    },
  );

  it('a missing iss is refused when the server advertises it', async () => {
    metadataWith({ authorization_response_iss_parameter_supported: true });
    fake.script.authorize = (query) => ({ code: 'c', state: query.get('state') ?? '' });
    const { error } = await connectFailure();
    expect(error).toMatchObject({ reason: 'issuer_mismatch' });
    expect(fake.requestsTo('/token')).toHaveLength(0);
  });

  it('metadata naming another issuer is not used', async () => {
    metadataWith({ issuer: 'https://attacker.example.com' });
    const { error } = await connectFailure();
    expect(error).toMatchObject({ reason: 'issuer_mismatch' });
    expect(fake.requestsTo('/register')).toHaveLength(0);
    expect(fake.requestsTo('/authorize')).toHaveLength(0);
  });

  it('resource metadata for another resource is refused', async () => {
    fake.script.resourceMetadata = () => ({
      resource: 'https://other.example.com/mcp',
      authorization_servers: [fake.origin],
    });
    const { error } = await connectFailure();
    expect(error).toMatchObject({ reason: 'resource_mismatch' });
    expect(fake.requestsTo('/.well-known/oauth-authorization-server')).toHaveLength(0);
  });

  it('an authorization server without PKCE S256 is not used', async () => {
    metadataWith({ code_challenge_methods_supported: ['plain'] });
    const { error } = await connectFailure();
    expect(error).toMatchObject({ reason: 'invalid_metadata' });
    expect((error as Error).message).toMatch(/S256/);
    expect(fake.requestsTo('/register')).toHaveLength(0);
  });

  it('a token endpoint answering 8 MiB is cut off at the limit', async () => {
    fake.script.token = () => ({
      status: 200,
      body: JSON.stringify({ access_token: 'x'.repeat(8 * 1024 * 1024), token_type: 'Bearer' }),
    });
    const { error } = await connectFailure();
    expect(error).toMatchObject({ reason: 'token_request_failed' });
    expect((error as Error).message).toMatch(/more than 262144 bytes/);
  });

  it('a server asking for more scope forever is given up after the step-up limit', async () => {
    fake.script.mcp = (request) =>
      request.headers.authorization
        ? {
            status: 403,
            headers: {
              'www-authenticate': `Bearer error="insufficient_scope", scope="more:${Date.now()}"`,
            },
          }
        : { status: 401, headers: { 'www-authenticate': 'Bearer' } };
    fake.script.resourceMetadata = () => ({
      resource: fake.endpoint,
      authorization_servers: [fake.origin],
    });
    const { error, opened } = await connectFailure({ maxStepUps: 2 });
    expect(error).toMatchObject({ reason: 'step_up_limit' });
    // The first authorization, then two step-ups.
    expect(opened).toHaveLength(3);
  });
});

describe('issue 12: a server that moves to another authorization server', () => {
  it('is authorized anew there: registered again, the old client id and tokens never used', async () => {
    const second = await startFakeOAuth();
    const browser = headlessBrowser();
    const store = new MemoryOAuthStore();
    const oauth = new OAuthClient({
      store,
      allowLoopbackHttp: true,
      openAuthorizationUrl: browser.open,
      redirectReceiver: browser.receiver,
    });
    const client = new McpClient({ name: 'migrating', version: '1' }, { protocolEra: 'legacy' });
    try {
      await client.connect(new HttpClientTransport(fake.endpoint, { auth: oauth }));
      expect(await store.getClient(fake.origin)).toMatchObject({
        clientId: `client-of-${fake.origin}`,
      });
      // The resource now names the second authorization server and takes only its tokens.
      fake.script.resourceMetadata = () => ({
        resource: fake.endpoint,
        authorization_servers: [second.origin],
      });
      second.script.token = () => ({
        status: 200,
        body: JSON.stringify({ access_token: 'second-token', token_type: 'Bearer' }),
      });
      fake.script.mcp = (request) =>
        request.headers.authorization === 'Bearer second-token'
          ? mcpAnswer(request)
          : { status: 401, headers: { 'www-authenticate': 'Bearer' } };
      expect(await client.listTools()).toEqual([]);
      expect(second.requestsTo('/register')).toHaveLength(1);
      const [authorization] = second.requestsTo('/authorize');
      expect(authorization?.query.get('client_id')).toBe(`client-of-${second.origin}`);
      expect(second.requestsTo('/token')[0]?.body).not.toContain(
        encodeURIComponent(`client-of-${fake.origin}`),
      );
      expect(await store.getIssuerOf(fake.endpoint)).toBe(second.origin);
      expect(
        await store.getTokens({ issuer: fake.origin, resource: fake.endpoint }),
      ).toBeUndefined();
    } finally {
      await client.close().catch(() => {});
      await second.close();
    }
  });
});

describe('issue 12: authorize() on a server that takes no tokens', () => {
  it('says there is nothing to log in to, and sends nobody anywhere', async () => {
    fake.script.mcp = mcpAnswer;
    fake.script.resourceMetadata = () => undefined;
    const browser = headlessBrowser();
    const oauth = new OAuthClient({
      allowLoopbackHttp: true,
      openAuthorizationUrl: browser.open,
      redirectReceiver: browser.receiver,
    });
    await expect(oauth.authorize(fake.endpoint)).rejects.toMatchObject({
      reason: 'not_protected',
      message: expect.stringMatching(/did not ask for authorization \(HTTP 200\)/),
    });
    expect(browser.opened).toEqual([]);
    expect(fake.requestsTo('/register')).toHaveLength(0);
  });
});

/**
 * Issue 12: toolwire's OAuth client against a real authorization server (oidc-provider on
 * 127.0.0.1) and a toolwire server protected by it. A scripted user signs in on the provider's
 * pages when the client opens the authorization URL; the redirect comes back to the loopback
 * receiver. Covered: discovery from the 401, dynamic registration, PKCE, resource, iss, the call;
 * refresh before expiry and on 401; step-up to a tool's scope; forgetting the tokens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import {
  createHttpHandler,
  HttpClientTransport,
  jwtVerifier,
  MemoryOAuthStore,
  OAuthClient,
  OAuthError,
  type OAuthClientOptions,
} from '../../src/http.js';
import { LoopbackRedirectReceiver, serveHttp, type HttpListener } from '../../src/node.js';
import { McpServer } from '../../src/server.js';
import { signIn, startAuthServer, type TestAuthServer } from '../support/authServer.js';
import { freePort } from '../support/redis.js';

let auth: TestAuthServer;
let listener: HttpListener;
let resource: string;

function protectedServer(): McpServer {
  const server = new McpServer({ name: 'protected', version: '1' });
  server.registerTool('whoami', {}, (_args, ctx) => ctx.identity?.subject ?? 'nobody');
  server.registerTool('admin', { scopes: ['mcp:admin'] }, () => 'admin done');
  return server;
}

beforeAll(async () => {
  auth = await startAuthServer();
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  const handler = createHttpHandler(protectedServer(), {
    oauth: {
      resource,
      authorizationServers: [auth.issuer],
      scopes: ['mcp:tools'],
      scopesSupported: ['mcp:tools', 'mcp:admin'],
      allowLoopbackHttp: true,
      verifier: jwtVerifier({
        jwksUrl: auth.jwksUri,
        issuer: auth.issuer,
        allowLoopbackHttp: true,
      }),
    },
  });
  listener = await serveHttp(handler, { port, host: '127.0.0.1' });
}, 60_000);

afterAll(async () => {
  await listener?.close();
  await auth?.close();
});

/** A client whose "browser" is a scripted user signing in as `user`; counts authorizations. */
function oauthClient(options: Partial<OAuthClientOptions> & { user?: string } = {}) {
  const receiver = new LoopbackRedirectReceiver();
  const opened: URL[] = [];
  const client = new OAuthClient({
    allowLoopbackHttp: true,
    redirectReceiver: receiver,
    openAuthorizationUrl: async (url) => {
      opened.push(url);
      const back = await signIn(auth.issuer, url.href, options.user ?? 'alice');
      await fetch(back); // the browser follows the redirect to the receiver
    },
    ...options,
  });
  return { client, opened, receiver };
}

async function connect(auth: OAuthClient): Promise<McpClient> {
  const client = new McpClient({ name: 'flow-test', version: '1' }, { protocolEra: 'legacy' });
  await client.connect(new HttpClientTransport(resource, { auth }));
  return client;
}

describe('OAuth client with oidc-provider and a protected toolwire server', () => {
  it('authorizes on the first 401 (discovery, DCR, PKCE, resource, iss) and calls the tool', async () => {
    const store = new MemoryOAuthStore();
    const { client: oauth, opened, receiver } = oauthClient({ store });
    try {
      const mcp = await connect(oauth);
      const result = await mcp.callTool('whoami', {});
      expect(result.content).toEqual([{ type: 'text', text: 'alice' }]);
      expect(opened).toHaveLength(1);
      const query = opened[0]!.searchParams;
      expect(query.get('code_challenge_method')).toBe('S256');
      expect(query.get('resource')).toBe(resource);
      // The challenge's scope, and offline_access because the provider lists it.
      expect(query.get('scope')?.split(' ').sort()).toEqual(['mcp:tools', 'offline_access']);
      const client = await store.getClient(auth.issuer);
      expect(client).toMatchObject({ registration: 'dynamic', tokenEndpointAuthMethod: 'none' });
      const tokens = await store.getTokens({ issuer: auth.issuer, resource });
      expect(tokens?.refreshToken).toEqual(expect.any(String));
      await mcp.close();
    } finally {
      await receiver.close();
    }
  }, 30_000);

  it('refreshes the access token before it expires, and on a 401, without the user', async () => {
    const store = new MemoryOAuthStore();
    const { client: first, receiver } = oauthClient({ store });
    try {
      const mcp = await connect(first);
      await mcp.close();
    } finally {
      await receiver.close();
    }
    const key = { issuer: auth.issuer, resource };
    const before = await store.getTokens(key);
    // About to expire, and a new client without any way to ask the user: only refresh helps it.
    await store.setTokens(key, { ...before!, expiresAt: Date.now() + 1_000 });
    const refreshing = new OAuthClient({ store, allowLoopbackHttp: true });
    const mcp = await connect(refreshing);
    expect((await mcp.callTool('whoami', {})).content).toEqual([{ type: 'text', text: 'alice' }]);
    const after = await store.getTokens(key);
    expect(after?.accessToken).not.toBe(before?.accessToken);
    await mcp.close();

    // A token the server refuses (revoked, say): the 401 makes the client refresh.
    await store.setTokens(key, { ...after!, accessToken: 'not-a-token', expiresAt: undefined });
    const onRefusal = new OAuthClient({ store, allowLoopbackHttp: true });
    const again = await connect(onRefusal);
    expect((await again.callTool('whoami', {})).content).toEqual([{ type: 'text', text: 'alice' }]);
    expect((await store.getTokens(key))?.accessToken).not.toBe('not-a-token');
    await again.close();
  }, 30_000);

  it('steps up to the scope a tool needs, keeping the scopes held', async () => {
    const { client: oauth, opened, receiver } = oauthClient();
    try {
      const mcp = await connect(oauth);
      const result = await mcp.callTool('admin', {});
      expect(result.content).toEqual([{ type: 'text', text: 'admin done' }]);
      expect(opened).toHaveLength(2);
      expect(opened[1]!.searchParams.get('scope')?.split(' ').sort()).toEqual([
        'mcp:admin',
        'mcp:tools',
        'offline_access',
      ]);
      await mcp.close();
    } finally {
      await receiver.close();
    }
  }, 30_000);

  it('without a way to ask the user, a server needing authorization fails with login_required', async () => {
    const oauth = new OAuthClient({ allowLoopbackHttp: true });
    const error = await connect(oauth).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({ code: 'authorization', reason: 'login_required' });
  });

  it('authorize() logs in ahead of time; forget() drops the tokens and revokes them', async () => {
    const store = new MemoryOAuthStore();
    const { client: oauth, receiver } = oauthClient({ store });
    try {
      const result = await oauth.authorize(resource);
      expect(result).toMatchObject({
        issuer: auth.issuer,
        resource,
        hasRefreshToken: true,
        registration: 'dynamic',
      });
      const held = await store.getTokens({ issuer: auth.issuer, resource });
      expect(await oauth.forget(resource)).toEqual([
        { issuer: auth.issuer, resource, revocation: { issuer: auth.issuer, status: 'revoked' } },
      ]);
      expect(await store.getTokens({ issuer: auth.issuer, resource })).toBeUndefined();
      // Issue 19: the refresh token is refused from now on (the grant is revoked).
      const refresh = await fetch(`${auth.issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: held?.refreshToken ?? '',
          client_id: (await store.getClient(auth.issuer))?.clientId ?? '',
        }),
      });
      expect(refresh.status).toBe(400);
      expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });
    } finally {
      await receiver.close();
    }
  }, 30_000);
});

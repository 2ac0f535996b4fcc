/**
 * Issue 12: the Node pieces of the OAuth client with a real authorization server (oidc-provider
 * on 127.0.0.1): the authorization URL printed by the opener, a scripted user signing in on the
 * provider's pages, the provider's redirect received by the loopback receiver (code, state and
 * RFC 9207 iss), the code exchanged at the token endpoint, and the tokens kept in the file store.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FileOAuthStore,
  LoopbackRedirectReceiver,
  openInBrowser,
  type OpenInBrowserOptions,
} from '../../src/node.js';
import { signIn, startAuthServer, type TestAuthServer } from '../support/authServer.js';

let auth: TestAuthServer;
let dir = '';
beforeAll(async () => {
  auth = await startAuthServer();
  dir = mkdtempSync(join(tmpdir(), 'toolwire-pieces-'));
});
afterAll(async () => {
  await auth?.close();
  rmSync(dir, { recursive: true, force: true });
});

const RESOURCE = 'http://127.0.0.1:9/mcp';

/** An authorization request of the public native client `app-one`, with PKCE. */
function authorizationRequest(redirectUri: string) {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(12).toString('base64url');
  const url = new URL(`${auth.issuer}/auth`);
  for (const [k, v] of Object.entries({
    client_id: 'app-one',
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'mcp:tools',
    resource: RESOURCE,
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }))
    url.searchParams.set(k, v);
  return { url, verifier, state };
}

describe('the Node pieces with oidc-provider', () => {
  it('print the URL, receive the redirect on 127.0.0.1, and keep the tokens in the file', async () => {
    const receiver = new LoopbackRedirectReceiver();
    const store = new FileOAuthStore({ path: join(dir, 'toolwire', 'credentials.json') });
    try {
      const redirectUri = await receiver.start();
      const request = authorizationRequest(redirectUri);
      let printed = '';
      const options: OpenInBrowserOptions = {
        output: { write: (t: string) => (printed += t) },
        browser: false,
      };
      // The provider is on http://127.0.0.1: opened only when loopback http is allowed.
      expect(() => openInBrowser(request.url, options)).toThrow(/loopback http is allowed/);
      openInBrowser(request.url, { ...options, allowLoopbackHttp: true });
      const shown = /^ {2}(http\S+)$/m.exec(printed)?.[1];
      expect(shown).toBe(request.url.href);

      // The user copies the URL into a browser, signs in, and the browser follows the redirect.
      const back = await signIn(auth.issuer, shown!, 'alice');
      expect(back.origin).toBe(new URL(redirectUri).origin);
      const waited = receiver.wait();
      const page = await fetch(back);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      const query = await waited;
      expect(query.get('state')).toBe(request.state);
      expect(query.get('iss')).toBe(auth.issuer);

      const response = await fetch(`${auth.issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: query.get('code') ?? '',
          code_verifier: request.verifier,
          redirect_uri: redirectUri,
          client_id: 'app-one',
          resource: RESOURCE,
        }),
      });
      const body = (await response.json()) as Record<string, unknown>;
      expect(response.status, JSON.stringify(body)).toBe(200);
      const key = { issuer: auth.issuer, resource: RESOURCE };
      await store.setTokens(key, {
        accessToken: body['access_token'] as string,
        tokenType: body['token_type'] as string,
        expiresAt: Date.now() + (body['expires_in'] as number) * 1000,
        scope: body['scope'] as string,
      });
      const kept = await new FileOAuthStore({ path: store.path }).getTokens(key);
      expect(kept?.accessToken).toBe(body['access_token']);
      expect(kept?.scope).toBe('mcp:tools');
      expect(statSync(store.path).mode & 0o777).toBe(0o600);
    } finally {
      await receiver.close();
    }
  });

  it('an authorization the provider refuses comes back as an error through the receiver', async () => {
    const receiver = new LoopbackRedirectReceiver();
    try {
      const redirectUri = await receiver.start();
      const request = authorizationRequest(redirectUri);
      // No session and no interaction allowed: refused with login_required, straight back.
      request.url.searchParams.set('prompt', 'none');
      const back = await signIn(auth.issuer, request.url.href, 'alice');
      const waited = receiver.wait();
      const page = await (await fetch(back)).text();
      expect(page).toContain('did not grant access (login_required)');
      const query = await waited;
      expect(query.get('error')).toBe('login_required');
      expect(query.get('iss')).toBe(auth.issuer);
      expect(query.get('state')).toBe(request.state);
    } finally {
      await receiver.close();
    }
  });
});

/**
 * Issue 19: an access token living less than the client's 60 s refresh window was refreshed
 * before every request (six refreshes in one `call`), since it was always "about to expire".
 * The window is now at most a third of the lifetime the token was issued with.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import { HttpClientTransport, MemoryOAuthStore, OAuthClient } from '../../src/http.js';
import { refreshDue } from '../../src/oauthClient/refreshWindow.js';
import { headlessBrowser, startFakeOAuth, type FakeOAuth } from '../support/fakeOAuth.js';

let fake: FakeOAuth;
beforeEach(async () => {
  fake = await startFakeOAuth();
});
afterEach(async () => {
  await fake.close();
});

/** The grants the token endpoint was sent, in order. */
const grants = () =>
  fake.requestsTo('/token').map((r) => new URLSearchParams(r.body).get('grant_type'));

describe('issue 19: short-lived access tokens', () => {
  it('a 30 s token is not refreshed on every request', async () => {
    let issued = 0;
    fake.script.token = () => ({
      status: 200,
      body: JSON.stringify({
        access_token: 'good-token',
        token_type: 'Bearer',
        expires_in: 30,
        refresh_token: `refresh-${++issued}`,
      }),
    });
    const browser = headlessBrowser();
    const store = new MemoryOAuthStore();
    const client = new McpClient({ name: 'short-lived', version: '1' }, { protocolEra: 'legacy' });
    await client.connect(
      new HttpClientTransport(fake.endpoint, {
        auth: new OAuthClient({
          store,
          allowLoopbackHttp: true,
          openAuthorizationUrl: browser.open,
          redirectReceiver: browser.receiver,
        }),
      }),
    );
    for (let i = 0; i < 5; i++) await client.listTools();
    await client.close();
    // One authorization code exchange, and no refresh: the token has 30 s, these took less.
    expect(grants()).toEqual(['authorization_code']);
    const held = await store.getTokens({ issuer: fake.origin, resource: fake.endpoint });
    expect(held).toMatchObject({ expiresIn: 30, refreshToken: 'refresh-1' });
  });

  it('is refreshed when a third of its lifetime is left, or the window, whichever is less', () => {
    const now = 1_000_000;
    const token = (expiresIn: number | undefined, left: number) => ({
      accessToken: 'a',
      tokenType: 'Bearer',
      expiresAt: now + left,
      ...(expiresIn !== undefined ? { expiresIn } : {}),
    });
    // 30 s token: refreshed with 10 s left, not with 11 s.
    expect(refreshDue(token(30, 11_000), 60_000, now)).toBe(false);
    expect(refreshDue(token(30, 10_000), 60_000, now)).toBe(true);
    // One-hour token: the 60 s window.
    expect(refreshDue(token(3600, 61_000), 60_000, now)).toBe(false);
    expect(refreshDue(token(3600, 60_000), 60_000, now)).toBe(true);
    // Lifetime unknown (stored by an older toolwire): the window.
    expect(refreshDue(token(undefined, 60_000), 60_000, now)).toBe(true);
    // No expiry: never before a 401.
    expect(refreshDue({ accessToken: 'a', tokenType: 'Bearer' }, 60_000, now)).toBe(false);
  });
});

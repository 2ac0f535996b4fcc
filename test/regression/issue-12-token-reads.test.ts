/**
 * Found while measuring issue 12: the OAuth client read its store on every request, which for
 * the credentials file (`FileOAuthStore`) meant reading, checking and parsing the file twice per
 * request (about 0.5 ms each time). It now reads a server's tokens once and keeps what it writes;
 * a refusal (401) reads the store again, since another process may have refreshed them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import { HttpClientTransport, MemoryOAuthStore, OAuthClient } from '../../src/http.js';
import type { StoredTokens, TokenKey } from '../../src/http.js';
import { mcpAnswer, startFakeOAuth, type FakeOAuth } from '../support/fakeOAuth.js';

class CountingStore extends MemoryOAuthStore {
  reads = 0;
  override async getTokens(key: TokenKey): Promise<StoredTokens | undefined> {
    this.reads++;
    return super.getTokens(key);
  }
}

let fake: FakeOAuth;
beforeEach(async () => {
  fake = await startFakeOAuth();
});
afterEach(async () => {
  await fake.close();
});

describe('issue 12: the tokens of a server are read from the store once', () => {
  it('many requests, one read; a 401 reads again and finds what another process stored', async () => {
    const store = new CountingStore();
    const key = { issuer: fake.origin, resource: fake.endpoint };
    await store.setIssuerOf(fake.endpoint, fake.origin);
    await store.setTokens(key, { accessToken: 'good-token', tokenType: 'Bearer' });
    const client = new McpClient({ name: 'reads', version: '1' }, { protocolEra: 'legacy' });
    await client.connect(
      new HttpClientTransport(fake.endpoint, {
        auth: new OAuthClient({ store, allowLoopbackHttp: true }),
      }),
    );
    for (let i = 0; i < 10; i++) await client.listTools();
    expect(store.reads).toBe(1);

    // Another process replaced the tokens; the server now takes only the new ones.
    await store.setTokens(key, { accessToken: 'newer-token', tokenType: 'Bearer' });
    fake.script.mcp = (request) =>
      request.headers.authorization === 'Bearer newer-token'
        ? mcpAnswer(request)
        : { status: 401, headers: { 'www-authenticate': 'Bearer' } };
    const reads = store.reads;
    await client.listTools();
    expect(store.reads).toBeGreaterThan(reads);
    await client.close();
  });
});

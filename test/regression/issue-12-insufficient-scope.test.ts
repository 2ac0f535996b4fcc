/**
 * Issue 12 follow-up: a client that cannot ask the user (no browser, no redirect receiver, as
 * `toolwire list` and `call` use the stored tokens) meeting 403 `insufficient_scope`. It failed
 * with `login_required`, "no usable tokens are held", although tokens were held: the server
 * wanted more scope. It now fails with `insufficient_scope`, naming the scopes a new login must
 * ask for (those held and those asked for), and the CLI prints that login command.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import { HttpClientTransport, MemoryOAuthStore, OAuthClient } from '../../src/http.js';
import { describeFailure } from '../../src/cli/failure.js';
import { headlessBrowser, startFakeOAuth, type FakeOAuth } from '../support/fakeOAuth.js';

let fake: FakeOAuth;
beforeEach(async () => {
  fake = await startFakeOAuth();
});
afterEach(async () => {
  await fake.close();
});

describe('403 insufficient_scope without a user to ask', () => {
  it('fails with insufficient_scope and the scopes to ask for, not login_required', async () => {
    fake.script.token = () => ({
      status: 200,
      body: JSON.stringify({
        access_token: 'good-token',
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'mcp:tools',
      }),
    });
    // A login, as `toolwire login` runs it.
    const store = new MemoryOAuthStore();
    const browser = headlessBrowser();
    const login = new OAuthClient({
      store,
      allowLoopbackHttp: true,
      openAuthorizationUrl: browser.open,
      redirectReceiver: browser.receiver,
    });
    await login.authorize(fake.endpoint);

    // The server now wants more for what the client does.
    const base = fake.script.mcp;
    fake.script.mcp = (request) =>
      request.headers.authorization === 'Bearer good-token'
        ? {
            status: 403,
            headers: {
              'www-authenticate': 'Bearer error="insufficient_scope", scope="files:write"',
            },
          }
        : base(request);
    const stored = new OAuthClient({ store, allowLoopbackHttp: true });
    const client = new McpClient(
      { name: 'non-interactive', version: '1' },
      { protocolEra: 'legacy' },
    );
    const error = await client
      .connect(new HttpClientTransport(fake.endpoint, { auth: stored }))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    await client.close().catch(() => {});
    expect(error).toMatchObject({
      reason: 'insufficient_scope',
      scope: 'mcp:tools files:write',
      message: expect.stringContaining('it asks for "files:write"'),
    });
    expect(describeFailure(error, { url: fake.endpoint }).message).toMatch(
      / run toolwire login http:\/\/127\.0\.0\.1:\d+\/mcp --scope mcp:tools --scope files:write$/,
    );
    // Only the first login opened a browser.
    expect(browser.opened).toHaveLength(1);
  });
});

/**
 * @module A real OAuth 2.1 authorization server for tests: `oidc-provider` (a certified OpenID
 * provider) on a free 127.0.0.1 port, issuing access tokens for resource indicators (RFC 8707):
 * JWTs signed with ES256, or opaque ones for the introspection tests (client `opaque-*`). Tokens
 * come from its token endpoint: client credentials, or authorization code with PKCE driven by a
 * scripted user agent that signs in and consents on the provider's own pages. Introspection and
 * revocation are on; `rotateKeys()` has it sign with a new key from then on.
 * Starting fails loudly: these tests are never skipped.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { ClientMetadata, default as Provider } from 'oidc-provider';

/** Every scope the provider grants for a resource. */
export const RESOURCE_SCOPES = 'mcp:tools mcp:admin files:read files:write';

/** A client of the provider; the secret is the id reversed (tests only). */
export interface TestClientSpec {
  readonly id: string;
  /**
   * `public`: authorization code + PKCE, no secret. `native`: an application on the user's
   * machine (as `toolwire login --client-id`): authorization code + PKCE with a loopback redirect
   * on any port (RFC 8252), and refresh tokens; a secret too with `secret`. Default
   * `confidential` (client credentials).
   */
  readonly kind?: 'public' | 'confidential' | 'native';
  /** A `native` client holding a secret (`client_secret_basic`). */
  readonly secret?: boolean;
}

/** Where a scripted authorization-code flow sends the browser back to (never listened on). */
export const REDIRECT_URI = 'http://127.0.0.1:9/callback';

/** The clients every test provider knows. */
const CLIENTS: readonly TestClientSpec[] = [
  { id: 'service-a' },
  { id: 'service-b' },
  // Opaque access tokens (introspection), and the resource server's own introspection client.
  { id: 'opaque-a' },
  { id: 'resource-server' },
  // Access tokens valid for one second (expiry).
  { id: 'short-lived' },
  { id: 'app-one', kind: 'public' },
  { id: 'app-two', kind: 'public' },
  // Pre-registered clients of a command line: any loopback port, refresh tokens.
  { id: 'cli-public', kind: 'native' },
  { id: 'cli-secret', kind: 'native', secret: true },
];

/** The secret of a confidential test client. */
export function secretOf(clientId: string): string {
  return `${[...clientId].reverse().join('')}-secret`;
}

/** A running test authorization server. */
export interface TestAuthServer {
  readonly issuer: string;
  readonly jwksUri: string;
  readonly introspectionEndpoint: string;
  /** The private signing keys, newest first (another server can sign with the same keys). */
  readonly keys: readonly JWK[];
  /** Requests the JWKS endpoint answered since start (key rotation tests count refetches). */
  readonly jwksFetches: number;
  /** A client-credentials access token for `resource`. */
  clientCredentials(options: {
    clientId: string;
    resource: string;
    scope?: string;
  }): Promise<string>;
  /** An access token from the authorization code flow with PKCE, signed in as `user`. */
  authorizationCode(options: {
    clientId: string;
    user: string;
    resource: string;
    scope?: string;
  }): Promise<string>;
  /** Revokes a token (RFC 7009) as the client it was issued to. */
  revoke(options: { token: string; clientId: string }): Promise<void>;
  /** Signs with a new key from now on (the old one stays published, as in a real rotation). */
  rotateKeys(): Promise<void>;
  close(): Promise<void>;
}

async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: randomBytes(6).toString('hex'), alg: 'ES256', use: 'sig' };
}

function clientMetadata(spec: TestClientSpec): ClientMetadata {
  if (spec.kind === 'public')
    return {
      client_id: spec.id,
      id_token_signed_response_alg: 'ES256',
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      redirect_uris: [REDIRECT_URI],
    };
  if (spec.kind === 'native')
    return {
      client_id: spec.id,
      id_token_signed_response_alg: 'ES256',
      application_type: 'native',
      // The provider compares a native client's loopback redirect URIs without their port.
      redirect_uris: ['http://127.0.0.1/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...(spec.secret
        ? { client_secret: secretOf(spec.id), token_endpoint_auth_method: 'client_secret_basic' }
        : { token_endpoint_auth_method: 'none' }),
    };
  return {
    client_id: spec.id,
    id_token_signed_response_alg: 'ES256',
    client_secret: secretOf(spec.id),
    token_endpoint_auth_method: 'client_secret_basic',
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
  };
}

/** Runs `make` with console.warn dropping the warnings that contain `expected`. */
async function withoutWarning<T>(expected: string, make: () => T | Promise<T>): Promise<T> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).includes(expected)) warn(...args);
  };
  try {
    return await make();
  } finally {
    console.warn = warn;
  }
}

let providerClass: Promise<typeof Provider> | undefined;

/**
 * oidc-provider, imported on first use. On import it warns "Unsupported runtime. Use Node.js v22.x
 * LTS" on any Node before 22 (issue 20: once per test file of a Node 20 run); this test server
 * works there, so that warning alone is dropped.
 */
function loadProvider(): Promise<typeof Provider> {
  providerClass ??= withoutWarning(
    'Unsupported runtime',
    async () => (await import('oidc-provider')).default,
  );
  return providerClass;
}

/** Builds a provider without its development-mode warnings (expected here) on stderr. */
function providerFor(Class: typeof Provider, issuer: string, keys: readonly JWK[]): Provider {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).includes('development-only')) warn(...args);
  };
  try {
    return newProvider(Class, issuer, keys);
  } finally {
    console.warn = warn;
  }
}

function newProvider(Class: typeof Provider, issuer: string, keys: readonly JWK[]): Provider {
  return new Class(issuer, {
    clients: CLIENTS.map(clientMetadata),
    jwks: { keys: keys.map((k) => ({ ...k })) },
    scopes: ['openid', 'offline_access', ...RESOURCE_SCOPES.split(' ')],
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    pkce: { required: () => true },
    ttl: {
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? 600,
      ClientCredentials: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? 600,
      Grant: 600,
      Interaction: 600,
      Session: 600,
    },
    clientDefaults: { id_token_signed_response_alg: 'ES256' },
    // A client allowed the refresh_token grant gets a refresh token (the provider's default also
    // wants offline_access granted with prompt=consent; MCP clients need not ask for either).
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    features: {
      devInteractions: { enabled: true },
      // Dynamic Client Registration (RFC 7591), open to anyone, as MCP clients use it.
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      introspection: { enabled: true, allowedPolicy: () => true },
      revocation: { enabled: true, allowedPolicy: () => true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, _resource, client) => ({
          scope: RESOURCE_SCOPES,
          accessTokenFormat: client.clientId.startsWith('opaque-') ? 'opaque' : 'jwt',
          accessTokenTTL: client.clientId === 'short-lived' ? 1 : 600,
          jwt: { sign: { alg: 'ES256' } },
        }),
      },
    },
  });
}

function basicAuth(clientId: string): string {
  const pair = `${encodeURIComponent(clientId)}:${encodeURIComponent(secretOf(clientId))}`;
  return `Basic ${Buffer.from(pair).toString('base64')}`;
}

async function tokenRequest(
  issuer: string,
  form: Record<string, string>,
  clientId: string | undefined,
): Promise<string> {
  const response = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(clientId ? { authorization: basicAuth(clientId) } : {}),
    },
    body: new URLSearchParams(form),
  });
  const body = (await response.json()) as { access_token?: string; error_description?: string };
  if (!response.ok || typeof body.access_token !== 'string')
    throw new Error(`token endpoint ${response.status}: ${JSON.stringify(body)}`);
  return body.access_token;
}

/** A browser in a few lines: cookies by name, manual redirects, forms read from the HTML. */
class ScriptedUserAgent {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly origin: string) {}

  async request(url: string, form?: Record<string, string>): Promise<Response> {
    const absolute = new URL(url, this.origin).href;
    const response = await fetch(absolute, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form) } : {}),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = (pair ?? '').indexOf('=');
      if (eq > 0) this.cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1));
    }
    return response;
  }

  /** Follows redirects until one leaves the provider; returns that URL. */
  async follow(start: Response): Promise<Response | URL> {
    let response = start;
    for (let hops = 0; hops < 10; hops++) {
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) return response;
      const next = new URL(location, this.origin);
      if (next.origin !== this.origin) return next;
      await response.body?.cancel();
      response = await this.request(next.href);
    }
    throw new Error('too many redirects');
  }

  /** Submits the page's form with `fields` added to its hidden ones. */
  async submit(page: Response, fields: Record<string, string>): Promise<Response> {
    const html = await page.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form on the page: ${html.slice(0, 300)}`);
    const hidden: Record<string, string> = {};
    for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
      hidden[m[1] as string] = m[2] as string;
    return this.request(action.replaceAll('&amp;', '&'), { ...hidden, ...fields });
  }
}

/** The provider's HTTP server; `use(keys)` swaps in a provider signing with `keys[0]`. */
async function listen(counter: { jwks: number }): Promise<{
  server: Server;
  issuer: string;
  use: (keys: readonly JWK[]) => void;
}> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let callback: ReturnType<Provider['callback']> | undefined;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/jwks') counter.jwks++;
    if (callback) void callback(req, res);
    else res.writeHead(503).end();
  });
  const Class = await loadProvider();
  return {
    server,
    issuer,
    use: (keys) => (callback = providerFor(Class, issuer, keys).callback()),
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * Starts a test authorization server; throws (never skips) when it cannot. `keys`: sign with
 * these instead of a new key (a second issuer holding the first one's key).
 */
export async function startAuthServer(
  options: { keys?: readonly JWK[] } = {},
): Promise<TestAuthServer> {
  let keys = options.keys ? [...options.keys] : [await newSigningKey()];
  const counter = { jwks: 0 };
  const { server, issuer, use } = await listen(counter);
  use(keys);
  const discovery = (await (
    await fetch(`${issuer}/.well-known/openid-configuration`)
  ).json()) as Record<string, string>;
  if (discovery['issuer'] !== issuer)
    throw new Error(`oidc-provider did not start: ${JSON.stringify(discovery)}`);
  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    introspectionEndpoint: `${issuer}/token/introspection`,
    get keys() {
      return keys;
    },
    get jwksFetches() {
      return counter.jwks;
    },
    clientCredentials: ({ clientId, resource, scope }) =>
      tokenRequest(
        issuer,
        { grant_type: 'client_credentials', resource, scope: scope ?? 'mcp:tools' },
        clientId,
      ),
    async authorizationCode({ clientId, user, resource, scope }) {
      const agent = new ScriptedUserAgent(issuer);
      const verifier = randomBytes(32).toString('base64url');
      const state = randomBytes(8).toString('base64url');
      const authorize = new URL(`${issuer}/auth`);
      for (const [k, v] of Object.entries({
        client_id: clientId,
        response_type: 'code',
        redirect_uri: REDIRECT_URI,
        scope: scope ?? 'mcp:tools',
        resource,
        state,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      }))
        authorize.searchParams.set(k, v);
      const login = await agent.follow(await agent.request(authorize.href));
      if (login instanceof URL) throw new Error(`no login page: ${login.href}`);
      const consent = await agent.follow(
        await agent.submit(login, { login: user, password: 'any' }),
      );
      if (consent instanceof URL) throw new Error(`no consent page: ${consent.href}`);
      const back = await agent.follow(await agent.submit(consent, {}));
      if (!(back instanceof URL)) throw new Error(`no redirect back: ${await back.text()}`);
      if (back.searchParams.get('state') !== state) throw new Error('state mismatch');
      if (back.searchParams.get('iss') !== issuer) throw new Error('issuer mismatch');
      const code = back.searchParams.get('code');
      if (!code) throw new Error(`no code: ${back.href}`);
      return tokenRequest(
        issuer,
        {
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          redirect_uri: REDIRECT_URI,
          client_id: clientId,
          resource,
        },
        undefined,
      );
    },
    async revoke({ token, clientId }) {
      const response = await fetch(`${issuer}/token/revocation`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basicAuth(clientId),
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
      });
      if (!response.ok) throw new Error(`revocation ${response.status}: ${await response.text()}`);
    },
    async rotateKeys() {
      keys = [await newSigningKey(), ...keys];
      use(keys);
    },
    close: () => closeServer(server),
  };
}

/**
 * Plays the user's browser for an authorization URL of the provider at `issuer` (as a client
 * under test printed or opened it): signs in as `user`, consents, and returns the URL the
 * provider then sends the browser to (the client's redirect URI with `code`, `state`, `iss`),
 * without requesting it.
 */
export async function signIn(issuer: string, authorizationUrl: string, user: string): Promise<URL> {
  const agent = new ScriptedUserAgent(issuer);
  const login = await agent.follow(await agent.request(authorizationUrl));
  if (login instanceof URL) return login; // an error answered straight to the redirect URI
  const consent = await agent.follow(await agent.submit(login, { login: user, password: 'any' }));
  if (consent instanceof URL) return consent;
  const back = await agent.follow(await agent.submit(consent, {}));
  if (!(back instanceof URL)) throw new Error(`no redirect back: ${await back.text()}`);
  return back;
}

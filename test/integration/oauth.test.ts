/**
 * Issue 11: toolwire as an OAuth 2.1 resource server, against a real authorization server
 * (oidc-provider on 127.0.0.1): metadata, challenges, JWT verification (expiry, signature,
 * issuer, audience, key rotation), scopes (server-wide, per tool, implied), token in the query,
 * sessions bound to issuer/subject/client, introspection with revocation, stateless mode and the
 * 2024-11-05 endpoints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import {
  createHttpHandler,
  introspectionVerifier,
  jwtVerifier,
  StreamableHttpClientTransport,
  type HttpHandlerOptions,
  type StreamableHttpHandler,
  type TokenVerifier,
} from '../../src/http.js';
import { serveHttp, type HttpListener } from '../../src/node.js';
import { McpServer } from '../../src/server.js';
import { secretOf, startAuthServer, type TestAuthServer } from '../support/authServer.js';
import { EventReader, initializeMessage } from '../support/httpHarness.js';
import { freePort } from '../support/redis.js';

let auth: TestAuthServer;
let otherIssuer: TestAuthServer;
let listener: HttpListener;
let served: StreamableHttpHandler;
let resource: string;
let base: string;
const faults: unknown[] = [];

function mcpServer(): McpServer {
  const server = new McpServer({ name: 'protected', version: '1' });
  server.registerTool('whoami', {}, (_args, ctx) => {
    const { claims: _claims, ...identity } = ctx.identity ?? { id: 'nobody' };
    return JSON.stringify(identity);
  });
  server.registerTool('read_file', { scopes: ['files:read'] }, () => 'read');
  server.registerTool('write_file', { scopes: ['files:write'] }, () => 'written');
  return server;
}

function jwt(options: { cooldownMs?: number } = {}): TokenVerifier {
  return jwtVerifier({
    jwksUrl: auth.jwksUri,
    issuer: auth.issuer,
    clockSkewSeconds: 0,
    jwksCooldownMs: options.cooldownMs ?? 0,
    allowLoopbackHttp: true,
  });
}

function handlerWith(
  verifier: TokenVerifier,
  options: Omit<HttpHandlerOptions, 'oauth'> = {},
): StreamableHttpHandler {
  return createHttpHandler(mcpServer(), {
    onerror: (error) => faults.push(error),
    ...options,
    oauth: {
      resource,
      authorizationServers: [auth.issuer],
      scopes: ['mcp:tools'],
      scopesSupported: ['mcp:tools', 'files:read', 'files:write'],
      scopeHierarchy: { 'files:write': ['files:read'] },
      metadata: { resource_name: 'Protected test server' },
      allowLoopbackHttp: true,
      verifier,
    },
  });
}

beforeAll(async () => {
  auth = await startAuthServer();
  otherIssuer = await startAuthServer({ keys: auth.keys });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  resource = `${base}/mcp`;
  served = handlerWith(jwt());
  listener = await serveHttp(served, { port });
});

afterAll(async () => {
  await served?.close({ graceMs: 0 });
  await listener?.close();
  await auth?.close();
  await otherIssuer?.close();
});

const HEADERS = {
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
};
const initialize = initializeMessage();
const callTool = (name: string) => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name, arguments: {} },
});
const listTools = { jsonrpc: '2.0', id: 3, method: 'tools/list' };

/** POSTs a message, through the listening server or straight to a handler. */
function send(
  message: unknown,
  headers: Record<string, string> = {},
  options: { handler?: StreamableHttpHandler; path?: string } = {},
): Promise<Response> {
  const request = new Request(`${base}${options.path ?? '/mcp'}`, {
    method: 'POST',
    headers: { ...HEADERS, ...headers },
    body: JSON.stringify(message),
  });
  return options.handler ? options.handler.fetch(request) : fetch(request);
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function challengeOf(response: Response): Record<string, string> {
  const header = response.headers.get('www-authenticate') ?? '';
  expect(header.startsWith('Bearer ')).toBe(true);
  return Object.fromEntries(
    [...header.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
  ) as Record<string, string>;
}

async function token(scope = 'mcp:tools', clientId = 'service-a'): Promise<string> {
  return auth.clientCredentials({ clientId, resource, scope });
}

/** Initializes a session; returns its id. */
async function openSession(headers: Record<string, string>): Promise<string> {
  const response = await send(initialize, headers);
  expect(response.status).toBe(200);
  await response.text();
  const session = response.headers.get('mcp-session-id') as string;
  const ack = await send(
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    {
      ...headers,
      'mcp-session-id': session,
    },
  );
  expect(ack.status).toBe(202);
  return session;
}

describe('without a token', () => {
  it('answers 401 with the metadata URL and the scopes needed, and serves the metadata', async () => {
    const response = await send(initialize);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer scope="mcp:tools", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(await response.json()).toMatchObject({ error: { code: -32600 } });
    const { resource_metadata: url } = challengeOf(response);
    for (const at of [url as string, `${base}/.well-known/oauth-protected-resource`]) {
      const metadata = await fetch(at, { headers: { origin: 'https://app.example' } });
      expect(metadata.status).toBe(200);
      expect(metadata.headers.get('access-control-allow-origin')).toBe('*');
      expect(await metadata.json()).toEqual({
        resource,
        authorization_servers: [auth.issuer],
        scopes_supported: ['mcp:tools', 'files:read', 'files:write'],
        bearer_methods_supported: ['header'],
        resource_name: 'Protected test server',
      });
    }
    const preflight = await fetch(url as string, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect((await fetch(url as string, { method: 'POST' })).status).toBe(405);
  });

  it('refuses GET and DELETE on the endpoint, and another scheme, the same way', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${base}/mcp`, {
        method,
        headers: { accept: 'text/event-stream', 'mcp-session-id': 'x' },
      });
      expect(response.status).toBe(401);
      expect(challengeOf(response)['error']).toBeUndefined();
    }
    const basic = await send(initialize, { authorization: 'Basic YTpi' });
    expect(basic.status).toBe(401);
  });

  it('answers 400 invalid_request to a malformed Bearer header', async () => {
    for (const authorization of ['Bearer', 'Bearer a b', 'Bearer a, Bearer b']) {
      const response = await send(initialize, { authorization });
      expect(response.status).toBe(400);
      expect(challengeOf(response)['error']).toBe('invalid_request');
    }
  });
});

describe('a valid access token', () => {
  it('reaches the handler as the verified identity, with the tools its scopes allow', async () => {
    const t = await token();
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'legacy' });
    await client.connect(new StreamableHttpClientTransport(resource, { headers: bearer(t) }));
    try {
      expect((await client.listTools()).map((tool) => tool.name)).toEqual(['whoami']);
      const result = await client.callTool('whoami');
      const identity = JSON.parse((result.content[0] as { text: string }).text);
      expect(identity).toMatchObject({
        id: `${auth.issuer} service-a`,
        issuer: auth.issuer,
        subject: 'service-a',
        clientId: 'service-a',
        scopes: ['mcp:tools'],
      });
      expect(identity.expiresAt).toBeGreaterThan(Date.now());
    } finally {
      await client.close();
    }
  });
});

describe('verified tokens are remembered', () => {
  it('until they expire: a token seen before is answered synchronously, for its resource only', async () => {
    const verifier = jwt();
    const t = await token();
    const context = { resource, report: (e: unknown) => faults.push(e) };
    const first = verifier(t, context);
    expect(first).toBeInstanceOf(Promise);
    const verdict = await first;
    expect(verdict).toMatchObject({ ok: true });
    const again = verifier(t, context);
    expect(again).toBe(verdict);
    expect(verifier(t, { ...context, resource: 'http://127.0.0.1:9/other' })).toEqual({
      ok: false,
      reason: 'The access token is not for this resource (aud)',
    });
  });
});

describe('refused tokens: 401 invalid_token', () => {
  async function refusedWith(t: string, description: RegExp): Promise<void> {
    const response = await send(initialize, bearer(t));
    expect(response.status).toBe(401);
    const challenge = challengeOf(response);
    expect(challenge['error']).toBe('invalid_token');
    expect(challenge['error_description']).toMatch(description);
    expect(challenge['resource_metadata']).toBe(`${base}/.well-known/oauth-protected-resource/mcp`);
  }

  it('an expired token', async () => {
    const t = await auth.clientCredentials({ clientId: 'short-lived', resource });
    const exp = JSON.parse(Buffer.from(t.split('.')[1] as string, 'base64url').toString()).exp;
    await new Promise((r) => setTimeout(r, Math.max(0, exp * 1000 - Date.now()) + 50));
    await refusedWith(t, /expired/);
  });

  it('a token whose signature does not verify', async () => {
    const [header, payload, signature] = (await token()).split('.') as [string, string, string];
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    await refusedWith(`${header}.${payload}.${flipped}`, /signature/);
  });

  it('a token of another issuer, even signed with a key of this one', async () => {
    const t = await otherIssuer.clientCredentials({ clientId: 'service-a', resource });
    await refusedWith(t, /another issuer/);
  });

  it('a token for another resource (audience), never passed on', async () => {
    const t = await auth.clientCredentials({
      clientId: 'service-a',
      resource: 'http://127.0.0.1:9/other',
    });
    await refusedWith(t, /not for this resource/);
  });

  it('a token in the query string is refused unread (400), even beside a good header', async () => {
    const t = await token();
    const response = await send(initialize, bearer(t), { path: `/mcp?access_token=${t}` });
    expect(response.status).toBe(400);
    expect(challengeOf(response)['error']).toBe('invalid_request');
  });
});

describe('scopes', () => {
  it('a token without the server-wide scope gets 403 insufficient_scope', async () => {
    const response = await send(initialize, bearer(await token('files:read')));
    expect(response.status).toBe(403);
    expect(challengeOf(response)).toMatchObject({
      error: 'insufficient_scope',
      scope: 'mcp:tools',
    });
  });

  it('a tool the token lacks the scopes for is hidden, and calling it gets 403 naming every scope', async () => {
    const headers = bearer(await token());
    const session = await openSession(headers);
    const inSession = { ...headers, 'mcp-session-id': session };
    const call = await send(callTool('write_file'), inSession);
    expect(call.status).toBe(403);
    expect(challengeOf(call)).toMatchObject({
      error: 'insufficient_scope',
      scope: 'mcp:tools files:write',
    });
    const read = await send(callTool('read_file'), inSession);
    expect(challengeOf(read)['scope']).toBe('mcp:tools files:read');
  });

  it('a token with the scopes lists and calls the tools; a broader scope implies the narrower', async () => {
    const headers = bearer(await token('mcp:tools files:write'));
    const session = await openSession(headers);
    const inSession = { ...headers, 'mcp-session-id': session };
    const listed = await (await send(listTools, inSession)).json();
    expect(listed.result.tools.map((t: { name: string }) => t.name)).toEqual([
      'whoami',
      'read_file',
      'write_file',
    ]);
    for (const name of ['read_file', 'write_file']) {
      const call = await send(callTool(name), inSession);
      expect(call.status).toBe(200);
      expect((await call.json()).result.isError).toBeUndefined();
    }
  });
});

describe('sessions belong to the issuer, subject and client that created them', () => {
  it('another user, or the same user through another client, gets 404; a new token of the same holder goes on', async () => {
    const flow = (user: string, clientId: string) =>
      auth.authorizationCode({ clientId, user, resource, scope: 'mcp:tools' });
    const alice = await flow('alice', 'app-one');
    const session = await openSession(bearer(alice));
    const others = [await flow('bob', 'app-one'), await flow('alice', 'app-two')];
    for (const t of others) {
      const response = await send(listTools, { ...bearer(t), 'mcp-session-id': session });
      expect(response.status).toBe(404);
    }
    const renewed = await flow('alice', 'app-one');
    expect(renewed).not.toBe(alice);
    const response = await send(listTools, { ...bearer(renewed), 'mcp-session-id': session });
    expect(response.status).toBe(200);
    const whoami = await send(callTool('whoami'), {
      ...bearer(renewed),
      'mcp-session-id': session,
    });
    expect(JSON.parse((await whoami.json()).result.content[0].text)).toMatchObject({
      subject: 'alice',
      clientId: 'app-one',
    });
  });
});

describe('key rotation', () => {
  it('a token signed with a new key is accepted once the key set is fetched again, at most once per cooldown', async () => {
    const patient = handlerWith(jwt({ cooldownMs: 60_000 }));
    expect((await send(initialize, bearer(await token()), { handler: patient })).status).toBe(200);
    await auth.rotateKeys();
    const fresh = await token();
    const before = auth.jwksFetches;
    // This server's key set was fetched just now: the unknown key waits for the cooldown.
    const early = await send(initialize, bearer(fresh), { handler: patient });
    expect(early.status).toBe(401);
    expect(challengeOf(early)['error_description']).toMatch(/No single key/);
    expect(auth.jwksFetches).toBe(before);
    // The listening server (no cooldown) fetches the new set once and accepts it.
    expect((await send(initialize, bearer(fresh))).status).toBe(200);
    expect((await send(initialize, bearer(fresh))).status).toBe(200);
    expect(auth.jwksFetches).toBe(before + 1);
    await patient.close();
  });
});

describe('token introspection (RFC 7662)', () => {
  function introspecting(): StreamableHttpHandler {
    return handlerWith(
      introspectionVerifier({
        endpoint: auth.introspectionEndpoint,
        clientId: 'resource-server',
        clientSecret: secretOf('resource-server'),
        issuer: auth.issuer,
        cacheTtlMs: 0,
        allowLoopbackHttp: true,
      }),
    );
  }

  it('accepts an active opaque token and refuses it once revoked', async () => {
    const handler = introspecting();
    const t = await auth.clientCredentials({ clientId: 'opaque-a', resource });
    expect(t.split('.')).toHaveLength(1);
    const first = await send(initialize, bearer(t), { handler });
    expect(first.status).toBe(200);
    await auth.revoke({ token: t, clientId: 'opaque-a' });
    const after = await send(initialize, bearer(t), { handler });
    expect(after.status).toBe(401);
    expect(challengeOf(after)['error_description']).toMatch(/not active/);
    await handler.close();
  });

  it('refuses an opaque token issued for another resource', async () => {
    const handler = introspecting();
    const t = await auth.clientCredentials({
      clientId: 'opaque-a',
      resource: 'http://127.0.0.1:9/x',
    });
    const response = await send(initialize, bearer(t), { handler });
    expect(response.status).toBe(401);
    expect(challengeOf(response)['error_description']).toMatch(/not for this resource/);
    await handler.close();
  });
});

describe('stateless mode', () => {
  it('authenticates every request and checks the scopes of each call', async () => {
    const handler = handlerWith(jwt(), { stateless: true });
    expect((await send(listTools, {}, { handler })).status).toBe(401);
    const headers = bearer(await token());
    const listed = await send(listTools, headers, { handler });
    expect(listed.status).toBe(200);
    expect((await listed.json()).result.tools).toHaveLength(1);
    const call = await send(callTool('write_file'), headers, { handler });
    expect(call.status).toBe(403);
    await handler.close();
  });
});

describe('the 2024-11-05 HTTP+SSE endpoints', () => {
  it('need a token, bind the session to it and check the scopes of each call', async () => {
    expect((await fetch(`${base}/sse`, { headers: { accept: 'text/event-stream' } })).status).toBe(
      401,
    );
    const alice = await auth.authorizationCode({
      clientId: 'app-one',
      user: 'alice',
      resource,
      scope: 'mcp:tools',
    });
    const stream = await fetch(`${base}/sse`, {
      headers: { accept: 'text/event-stream', ...bearer(alice) },
    });
    expect(stream.status).toBe(200);
    const events = new EventReader(stream);
    const endpoint = (await events.next()).data;
    const post = (message: unknown, headers: Record<string, string>) =>
      send(message, headers, { path: endpoint });
    const bob = await auth.authorizationCode({ clientId: 'app-one', user: 'bob', resource });
    expect((await post(initialize, bearer(bob))).status).toBe(404);
    expect((await post(initialize, bearer(alice))).status).toBe(202);
    const denied = await post(callTool('write_file'), bearer(alice));
    expect(denied.status).toBe(403);
    expect(challengeOf(denied)['scope']).toBe('mcp:tools files:write');
    await events.disconnect();
  });
});

describe('faults', () => {
  it('reported none while serving the tests above', () => {
    expect(faults).toEqual([]);
  });
});

/**
 * Issue 19, HTTP: a GET (SSE) stream opened with a valid access token stayed open after the
 * token expired, so its holder kept receiving the session's messages without a valid credential.
 * Every request was checked, but a stream only when it opened. Now a GET stream ends when the
 * caller's credential does (`Identity.expiresAt`: the token's `exp`): a Streamable HTTP client
 * resumes it with `Last-Event-ID` and a fresh token (toolwire's client does), an HTTP+SSE session
 * ends with its stream. Tested with real JWT verification against a real authorization server
 * (oidc-provider), whose `short-lived` client gets tokens valid for one second.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import {
  createHttpHandler,
  jwtVerifier,
  StreamableHttpClientTransport,
  type HttpAuthorization,
  type StreamableHttpHandler,
} from '../../src/http.js';
import { serveHttp, type HttpListener } from '../../src/node.js';
import { McpServer } from '../../src/server.js';
import { startAuthServer, type TestAuthServer } from '../support/authServer.js';
import { EventReader, initializeMessage, openSession } from '../support/httpHarness.js';
import { freePort } from '../support/redis.js';

let auth: TestAuthServer;
let listener: HttpListener;
let handler: StreamableHttpHandler;
let server: McpServer;
let resource: string;
let base: string;
/** The token each GET on the MCP endpoint carried. */
const getTokens: string[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The `exp` of a JWT, in ms. */
function expiryOf(token: string): number {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
    exp: number;
  };
  return payload.exp * 1000;
}

/**
 * A token of the `short-lived` client (valid one second, `exp` in whole seconds) with at least
 * 500 ms left: asked for just after a second begins. At most five tries.
 */
async function shortLived(): Promise<string> {
  for (let i = 0; i < 5; i++) {
    await sleep(1000 - (Date.now() % 1000) + 20);
    const token = await auth.clientCredentials({ clientId: 'short-lived', resource });
    if (expiryOf(token) - Date.now() >= 500) return token;
  }
  throw new Error('no short-lived token with 500 ms left in five tries');
}

beforeAll(async () => {
  auth = await startAuthServer();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  resource = `${base}/mcp`;
  server = new McpServer({ name: 'expiring', version: '1' });
  server.registerTool('echo', {}, () => 'echo');
  handler = createHttpHandler(server, {
    onerror: () => {},
    retryMs: 100,
    oauth: {
      resource,
      authorizationServers: [auth.issuer],
      scopes: ['mcp:tools'],
      allowLoopbackHttp: true,
      verifier: jwtVerifier({
        jwksUrl: auth.jwksUri,
        issuer: auth.issuer,
        clockSkewSeconds: 0,
        allowLoopbackHttp: true,
      }),
    },
  });
  // The handler, with a note of the token of every GET on the MCP endpoint.
  listener = await serveHttp(
    {
      handle: (exchange, urlHost) => {
        if (exchange.method === 'GET' && exchange.pathname === '/mcp')
          getTokens.push(exchange.header('authorization')?.slice('Bearer '.length) ?? '');
        return handler.handle(exchange, urlHost);
      },
    },
    { port },
  );
}, 60_000);

afterAll(async () => {
  // The handler first: it ends every session and stream, which the listener waits for.
  await handler?.close({ graceMs: 0 });
  await listener?.close();
  await auth?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A GET on the MCP endpoint over the network. */
function get(token: string, headers: Record<string, string>, path = '/mcp'): Promise<Response> {
  return fetch(`${base}${path}`, {
    headers: { accept: 'text/event-stream', ...bearer(token), ...headers },
  });
}

/** Initializes a session over the network with `token` (and sends `notifications/initialized`). */
async function initialize(token: string): Promise<string> {
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        ...bearer(token),
        ...headers,
      },
      body: JSON.stringify(body),
    });
  const response = await post(initializeMessage());
  expect(response.status).toBe(200);
  await response.text();
  const session = response.headers.get('mcp-session-id') ?? '';
  const ack = await post(
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { 'mcp-session-id': session },
  );
  expect(ack.status).toBe(202);
  return session;
}

describe('a GET stream ends when the access token it was opened with expires', () => {
  it('Streamable HTTP: the stream ends; the expired token is refused, a fresh one resumes it', async () => {
    const session = await initialize(await shortLived());
    const token = await shortLived();
    const stream = await get(token, { 'mcp-session-id': session });
    expect(stream.status).toBe(200);
    const events = new EventReader(stream);
    const priming = await events.next();
    // Bounded: the token has at most one second left.
    await events.end(10_000);
    const again = await get(token, { 'mcp-session-id': session, 'last-event-id': priming.id! });
    expect(again.status).toBe(401);
    await again.body?.cancel();
    const fresh = await shortLived();
    const resumed = await get(fresh, { 'mcp-session-id': session, 'last-event-id': priming.id! });
    expect(resumed.status).toBe(200);
    await new EventReader(resumed).end(10_000);
  }, 30_000);

  it("toolwire's client reconnects the stream with a fresh token and keeps receiving", async () => {
    let current: string | undefined;
    // An application's authorization: client credentials, a new token once one has expired or
    // the server refuses it.
    const authorization: HttpAuthorization = {
      header: async () => {
        if (current === undefined || expiryOf(current) <= Date.now()) current = await shortLived();
        return `Bearer ${current}`;
      },
      challenged: async () => {
        current = await shortLived();
        return true;
      },
    };
    const changed: string[][] = [];
    const client = new McpClient(
      { name: 'expiry-client', version: '1' },
      { protocolEra: 'legacy', onToolsChanged: (tools) => changed.push(tools.map((t) => t.name)) },
    );
    try {
      getTokens.length = 0;
      await client.connect(new StreamableHttpClientTransport(resource, { auth: authorization }));
      await client.listTools();
      // Bounded: the stream of a one-second token ends within a second, and the client comes
      // back after the 100 ms retry delay with a new token.
      for (let i = 0; i < 100 && new Set(getTokens).size < 2; i++) await sleep(100);
      expect(new Set(getTokens).size).toBeGreaterThanOrEqual(2);
      // The reconnected stream carries what the server sends on its own.
      server.registerTool('added', {}, () => 'added');
      for (let i = 0; i < 100 && changed.length === 0; i++) await sleep(100);
      expect(changed.at(-1)).toContain('added');
    } finally {
      await client.close();
    }
  }, 30_000);

  it('HTTP+SSE: the stream ends and its session with it', async () => {
    const token = await shortLived();
    const stream = await get(token, {}, '/sse');
    expect(stream.status).toBe(200);
    const events = new EventReader(stream);
    const endpoint = await events.next();
    expect(endpoint.event).toBe('endpoint');
    await events.end(10_000);
    const post = await fetch(new URL(endpoint.data, base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(await shortLived()) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(post.status).toBe(404);
  }, 30_000);
});

describe('an identity with an expiry from authenticate', () => {
  it('has its GET stream ended then too', async () => {
    const expiring = createHttpHandler(new McpServer({ name: 'own-auth', version: '1' }), {
      onerror: () => {},
      // Whatever the scheme: the credential stops being valid 300 ms after each request.
      authenticate: () => ({ id: 'api-key-1', expiresAt: Date.now() + 300 }),
    });
    try {
      const session = await openSession(expiring);
      const response = await expiring.fetch(
        new Request('http://127.0.0.1:3000/mcp', {
          headers: {
            host: '127.0.0.1:3000',
            accept: 'text/event-stream',
            'mcp-session-id': session,
          },
        }),
      );
      expect(response.status).toBe(200);
      await new EventReader(response).end(10_000);
    } finally {
      await expiring.close();
    }
  });
});

/**
 * @module A scriptable protected MCP endpoint and authorization server on one 127.0.0.1 port,
 * for tests of the OAuth client's refusals: every document and answer can be replaced (metadata
 * pointing elsewhere, a forged redirect, an enormous token response), and every request is
 * recorded, so a test can show what the client did not do.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake received. */
export interface Seen {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: string;
  readonly headers: IncomingMessage['headers'];
}

/** What the fake serves; each may be replaced by the test. */
export interface FakeScript {
  /** The MCP endpoint's answer to a request (default: 401 with resource_metadata). */
  mcp(request: Seen): { status: number; headers?: Record<string, string>; body?: string };
  /** The protected resource metadata (default: this resource, this issuer); undefined: 404. */
  resourceMetadata(): unknown;
  /** The authorization server metadata (default: this issuer, S256, registration). */
  serverMetadata(): unknown;
  /** The redirect parameters the authorization endpoint sends back (default: code, state, iss). */
  authorize(query: URLSearchParams): Record<string, string>;
  /** The token endpoint's answer. */
  token(form: URLSearchParams): { status: number; body: string };
}

/** A running fake. */
export interface FakeOAuth {
  readonly origin: string;
  /** The MCP endpoint: `${origin}/mcp`. */
  readonly endpoint: string;
  readonly seen: Seen[];
  readonly script: FakeScript;
  /** Requests to a path (pathname only). */
  requestsTo(path: string): Seen[];
  close(): Promise<void>;
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

/** What a tools-only MCP server answers an authorized request (stateless, JSON). */
export function mcpAnswer(request: Seen): ReturnType<FakeScript['mcp']> {
  if (request.method !== 'POST') return { status: 405 };
  const message = JSON.parse(request.body) as { id?: unknown; method?: string };
  if (message.id === undefined) return { status: 202 };
  const result =
    message.method === 'initialize'
      ? {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {} },
          serverInfo: { name: 'fake', version: '1' },
        }
      : message.method === 'tools/list'
        ? { tools: [] }
        : {};
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: message.id, result }),
  };
}

/** Starts a fake on a free 127.0.0.1 port. */
export async function startFakeOAuth(): Promise<FakeOAuth> {
  const seen: Seen[] = [];
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const endpoint = `${origin}/mcp`;
  const script: FakeScript = {
    mcp: (request) =>
      request.headers.authorization === 'Bearer good-token'
        ? mcpAnswer(request)
        : {
            status: 401,
            headers: {
              'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
            },
          },
    resourceMetadata: () => ({ resource: endpoint, authorization_servers: [origin] }),
    serverMetadata: () => ({
      issuer: origin,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      registration_endpoint: `${origin}/register`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
    }),
    authorize: (query) => ({ code: 'the-code', state: query.get('state') ?? '', iss: origin }),
    token: () => ({
      status: 200,
      body: JSON.stringify({ access_token: 'good-token', token_type: 'Bearer', expires_in: 3600 }),
    }),
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', origin);
      const request: Seen = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        body,
        headers: req.headers,
      };
      seen.push(request);
      switch (url.pathname) {
        case '/mcp': {
          const answer = script.mcp(request);
          res.writeHead(answer.status, answer.headers).end(answer.body ?? '');
          return;
        }
        case '/.well-known/oauth-protected-resource/mcp': {
          const metadata = script.resourceMetadata();
          return metadata === undefined ? json(res, 404, {}) : json(res, 200, metadata);
        }
        case '/.well-known/oauth-authorization-server':
          return json(res, 200, script.serverMetadata());
        case '/register':
          return json(res, 201, {
            client_id: `client-of-${origin}`,
            redirect_uris: (JSON.parse(body) as { redirect_uris?: unknown }).redirect_uris,
          });
        case '/authorize': {
          const back = new URL(url.searchParams.get('redirect_uri') ?? 'http://127.0.0.1:9/');
          for (const [k, v] of Object.entries(script.authorize(url.searchParams)))
            back.searchParams.set(k, v);
          res.writeHead(302, { location: back.href }).end();
          return;
        }
        case '/token': {
          const answer = script.token(new URLSearchParams(body));
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
          return;
        }
        default:
          res.writeHead(404).end();
      }
    });
  });
  return {
    origin,
    endpoint,
    seen,
    script,
    requestsTo: (path) => seen.filter((s) => s.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A headless "browser" for the fake: `open` requests the authorization URL and hands the
 * redirect it answers to `wait`, as a user agent and a loopback receiver would.
 */
export function headlessBrowser(): {
  open: (url: URL) => Promise<void>;
  receiver: {
    start(): Promise<string>;
    wait(signal?: AbortSignal): Promise<URLSearchParams>;
    close(): Promise<void>;
  };
  opened: URL[];
} {
  const opened: URL[] = [];
  let deliver: ((query: URLSearchParams) => void) | undefined;
  let pending: URLSearchParams | undefined;
  return {
    opened,
    open: async (url) => {
      opened.push(url);
      const response = await fetch(url, { redirect: 'manual' });
      const location = response.headers.get('location');
      if (!location) throw new Error(`no redirect from ${url.href}`);
      const query = new URL(location).searchParams;
      if (deliver) deliver(query);
      else pending = query;
    },
    receiver: {
      start: async () => 'http://127.0.0.1:9/callback',
      wait: (signal) =>
        new Promise((resolve, reject) => {
          if (pending) {
            const query = pending;
            pending = undefined;
            return resolve(query);
          }
          deliver = (query) => {
            deliver = undefined;
            resolve(query);
          };
          signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        }),
      close: async () => {},
    },
  };
}

/**
 * Issue 9, client: the HTTP client followed a redirect from the MCP endpoint to another origin
 * (fetch's default), taking the client's messages and headers with it. Redirects are now
 * followed by hand: only to the endpoint's origin by default (`followRedirects: 'same-origin'`),
 * never with `'never'`, as a function decides otherwise; at most `maxRedirects` (5) hops; a POST
 * only on 307/308; and a hop to another origin never carries Authorization or the caller's
 * headers. Streamable HTTP (POST, GET, DELETE) and the 2024-11-05 HTTP+SSE client alike.
 *
 * Two real servers on 127.0.0.1, two ports: two origins.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import {
  createHttpHandler,
  HttpClientTransport,
  LegacySseClientTransport,
  RedirectError,
  StreamableHttpClientTransport,
  type StreamableHttpHandler,
} from '../../src/http.js';
import { serveHttp, type HttpListener } from '../../src/node.js';
import { McpServer } from '../../src/server.js';

interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
}

interface Origin {
  listener: HttpListener;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  seen: Seen[];
  handler: StreamableHttpHandler;
}

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close().catch(() => {});
});

/**
 * A toolwire MCP server on its own port that records every request; `redirect` may answer one
 * instead (a 3xx with a Location).
 */
async function origin(redirect?: (request: Request) => Response | undefined): Promise<Origin> {
  const server = new McpServer({ name: 'mcp', version: '1' });
  server.registerTool('ping', { description: 'pong' }, () => 'pong');
  const handler = createHttpHandler(server, { onerror: () => {} });
  const seen: Seen[] = [];
  const listener = await serveHttp(async (request) => {
    const url = new URL(request.url);
    seen.push({
      method: request.method,
      path: url.pathname + url.search,
      headers: Object.fromEntries(request.headers),
    });
    return redirect?.(request) ?? handler.fetch(request);
  });
  open.push(listener, handler);
  return { listener, origin: listener.origin, seen, handler };
}

const moved = (status: number, location: string): Response =>
  new Response(null, { status, headers: { location } });

const secrets = { authorization: 'Bearer secret-token', 'x-api-key': 'key-123' };

/** The redirect refusal under the client's "Could not send initialize" (its cause). */
async function refusalOf(connecting: Promise<unknown>): Promise<unknown> {
  const error: unknown = await connecting.then(
    () => new Error('connected'),
    (e: unknown) => e,
  );
  expect(error).toMatchObject({ code: 'send-failed' });
  const cause = (error as { cause?: unknown }).cause;
  expect(cause).toBeInstanceOf(RedirectError);
  return cause;
}

async function connect(
  transport: StreamableHttpClientTransport | HttpClientTransport | LegacySseClientTransport,
) {
  const client = new McpClient(
    { name: 'c', version: '1' },
    { protocolEra: 'legacy', onerror: () => {} },
  );
  open.push(client);
  await client.connect(transport);
  return client;
}

describe('Streamable HTTP: redirects', () => {
  it('a POST redirected to another origin is refused; that origin hears nothing', async () => {
    const b = await origin();
    const a = await origin(() => moved(307, `${b.origin}/mcp`));
    const transport = new StreamableHttpClientTransport(`${a.origin}/mcp`, { headers: secrets });
    const error = await refusalOf(connect(transport));
    expect(error).toMatchObject({
      code: 'transport',
      status: 307,
      from: `${a.origin}/mcp`,
      to: `${b.origin}/mcp`,
      message: expect.stringMatching(
        /leads away from http:\/\/127\.0\.0\.1:\d+ \(followRedirects: same-origin\)/,
      ),
    });
    expect(b.seen).toEqual([]);
  });

  it('HttpClientTransport refuses it too, and does not fall back to HTTP+SSE elsewhere', async () => {
    const b = await origin();
    const a = await origin(() => moved(302, `${b.origin}/mcp`));
    await refusalOf(connect(new HttpClientTransport(`${a.origin}/mcp`)));
    expect(b.seen).toEqual([]);
  });

  it.each([307, 308])(
    'a same-origin %i is followed with its method, body and headers',
    async (status) => {
      const a = await origin((request) =>
        new URL(request.url).pathname === '/old' ? moved(status, '/mcp') : undefined,
      );
      const client = await connect(
        new StreamableHttpClientTransport(`${a.origin}/old`, { headers: secrets }),
      );
      await expect(client.callTool('ping')).resolves.toMatchObject({
        content: [{ type: 'text', text: 'pong' }],
      });
      const posts = a.seen.filter((s) => s.method === 'POST' && s.path === '/mcp');
      expect(posts.length).toBeGreaterThanOrEqual(3); // initialize, initialized, tools/call...
      for (const post of posts) expect(post.headers).toMatchObject(secrets);
    },
  );

  it.each([301, 302, 303])(
    'a POST answered %i is not turned into a GET: refused',
    async (status) => {
      const a = await origin((request) =>
        new URL(request.url).pathname === '/old' ? moved(status, '/mcp') : undefined,
      );
      const error = await refusalOf(connect(new StreamableHttpClientTransport(`${a.origin}/old`)));
      expect(error).toMatchObject({
        status,
        message: expect.stringMatching(/a POST is re-sent only on 307 or 308/),
      });
      expect(a.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /old']);
    },
  );

  it("followRedirects: 'never' refuses even a same-origin redirect", async () => {
    const a = await origin((request) =>
      new URL(request.url).pathname === '/old' ? moved(307, '/mcp') : undefined,
    );
    const transport = new StreamableHttpClientTransport(`${a.origin}/old`, {
      followRedirects: 'never',
    });
    expect(await refusalOf(connect(transport))).toMatchObject({
      status: 307,
      message: expect.stringMatching(/followRedirects: never/),
    });
    expect(a.seen).toHaveLength(1);
  });

  it('a redirect loop stops after maxRedirects hops', async () => {
    let n = 0;
    const a = await origin(() => moved(307, `/loop/${++n}`));
    const transport = new StreamableHttpClientTransport(`${a.origin}/mcp`, { maxRedirects: 3 });
    expect(await refusalOf(connect(transport))).toMatchObject({
      message: expect.stringMatching(/more than 3 redirects/),
    });
    expect(a.seen).toHaveLength(4);
  });

  it('a redirect to a non-HTTP scheme is refused whatever the policy', async () => {
    const a = await origin(() => moved(307, 'file:///etc/passwd'));
    const transport = new StreamableHttpClientTransport(`${a.origin}/mcp`, {
      followRedirects: () => true,
    });
    expect(await refusalOf(connect(transport))).toMatchObject({
      message: expect.stringMatching(/the scheme file: is not HTTP/),
    });
  });

  it('a hop the application allows to another origin carries no credentials or own headers', async () => {
    const b = await origin();
    const a = await origin((request) => moved(307, `${b.origin}${new URL(request.url).pathname}`));
    const allowed: Array<[string, string]> = [];
    const transport = new StreamableHttpClientTransport(`${a.origin}/mcp`, {
      headers: secrets,
      followRedirects: (from, to) => {
        allowed.push([from.origin, to.origin]);
        return to.origin === b.origin;
      },
    });
    const client = await connect(transport);
    await expect(client.callTool('ping')).resolves.toMatchObject({
      content: [{ type: 'text', text: 'pong' }],
    });
    await client.close();
    expect(allowed.length).toBeGreaterThan(0);
    expect(allowed.every(([from, to]) => from === a.origin && to === b.origin)).toBe(true);
    // A saw the credentials (they are its own); B saw none of them, but the protocol's headers.
    expect(a.seen[0]?.headers).toMatchObject(secrets);
    expect(b.seen.length).toBeGreaterThanOrEqual(3);
    for (const request of b.seen) {
      expect(request.headers).not.toHaveProperty('authorization');
      expect(request.headers).not.toHaveProperty('x-api-key');
    }
    const call = b.seen.find((s) => s.method === 'POST' && s.headers['mcp-protocol-version']);
    expect(call?.headers).toMatchObject({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    });
    // The DELETE on close went the same way.
    expect(b.seen.some((s) => s.method === 'DELETE')).toBe(true);
  });

  it('the GET stream redirected to another origin is given up and reported; DELETE is not sent there', async () => {
    const b = await origin();
    const a = await origin((request) =>
      request.method === 'POST' ? undefined : moved(307, `${b.origin}/mcp`),
    );
    const errors: Error[] = [];
    const transport = new StreamableHttpClientTransport(`${a.origin}/mcp`, {
      headers: secrets,
      reconnectDelayMs: 10,
    });
    const client = new McpClient(
      { name: 'c', version: '1' },
      { protocolEra: 'legacy', onerror: (e) => errors.push(e) },
    );
    open.push(client);
    transport.onerror = (e) => errors.push(e);
    await client.connect(transport);
    const deadline = Date.now() + 5000;
    while (errors.length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(errors[0]).toBeInstanceOf(RedirectError);
    expect(errors[0]?.message).toMatch(/HTTP 307 from .* not followed/);
    // The client still works over POST.
    await expect(client.callTool('ping')).resolves.toMatchObject({
      content: [{ type: 'text', text: 'pong' }],
    });
    await client.close();
    expect(a.seen.filter((s) => s.method === 'GET')).toHaveLength(1);
    expect(a.seen.some((s) => s.method === 'DELETE')).toBe(true);
    expect(b.seen).toEqual([]);
  });
});

describe('HTTP+SSE (2024-11-05): redirects and the endpoint event', () => {
  it('the event stream redirected to another origin is refused', async () => {
    const b = await origin();
    const a = await origin(() => moved(302, `${b.origin}/sse`));
    const transport = new LegacySseClientTransport(`${a.origin}/sse`, { headers: secrets });
    await expect(transport.start()).rejects.toBeInstanceOf(RedirectError);
    expect(b.seen).toEqual([]);
  });

  it('a same-origin redirect of the stream is followed, and the session works', async () => {
    const a = await origin((request) =>
      new URL(request.url).pathname === '/events' ? moved(301, '/sse') : undefined,
    );
    const client = await connect(new LegacySseClientTransport(`${a.origin}/events`));
    await expect(client.callTool('ping')).resolves.toMatchObject({
      content: [{ type: 'text', text: 'pong' }],
    });
  });

  it('an endpoint event naming another origin is refused', async () => {
    const b = await origin();
    const a = await origin((request) =>
      request.method === 'GET'
        ? new Response(`event: endpoint\ndata: ${b.origin}/messages\n\n`, {
            headers: { 'content-type': 'text/event-stream' },
          })
        : undefined,
    );
    const transport = new LegacySseClientTransport(`${a.origin}/sse`, { headers: secrets });
    await expect(transport.start()).rejects.toMatchObject({
      message: `The endpoint ${b.origin}/messages is not on ${a.origin}`,
    });
    expect(b.seen).toEqual([]);
  });

  it('an endpoint elsewhere that followRedirects allows gets no credentials', async () => {
    const b = await origin((request) =>
      request.method === 'POST' ? new Response(null, { status: 202 }) : undefined,
    );
    // The stream stays open after the endpoint event, as a real one does.
    const a = await origin((request) =>
      request.method === 'GET'
        ? new Response(
            new ReadableStream<Uint8Array>({
              start: (controller) =>
                controller.enqueue(
                  new TextEncoder().encode(`event: endpoint\ndata: ${b.origin}/messages\n\n`),
                ),
            }),
            { headers: { 'content-type': 'text/event-stream' } },
          )
        : undefined,
    );
    const transport = new LegacySseClientTransport(`${a.origin}/sse`, {
      headers: secrets,
      followRedirects: (_from, to) => to.origin === b.origin,
    });
    open.push(transport);
    await transport.start();
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(a.seen[0]?.headers).toMatchObject(secrets);
    expect(b.seen).toHaveLength(1);
    expect(b.seen[0]).toMatchObject({ method: 'POST', path: '/messages' });
    expect(b.seen[0]?.headers).not.toHaveProperty('authorization');
    expect(b.seen[0]?.headers).not.toHaveProperty('x-api-key');
  });

  it('a POST to the endpoint redirected to another origin is refused', async () => {
    const b = await origin();
    const a = await origin((request) =>
      new URL(request.url).pathname === '/messages'
        ? moved(307, `${b.origin}/messages`)
        : undefined,
    );
    await refusalOf(connect(new LegacySseClientTransport(`${a.origin}/sse`, { headers: secrets })));
    expect(b.seen).toEqual([]);
  });
});

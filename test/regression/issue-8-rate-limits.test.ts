/**
 * Issue 8: rate limits could be bypassed. Without an identity they counted per session, so a
 * client opening a new session per call was never limited, and in stateless HTTP mode they
 * counted nothing. Anonymous callers are now limited per client address (HTTP) or per process
 * (stdio, in-memory), and unusable rules are refused when the server or tool is configured.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import {
  createHttpHandler,
  HttpClientTransport,
  type StreamableHttpHandler,
} from '../../src/http.js';
import { serveHttp } from '../../src/node.js';
import { ErrorCode } from '../../src/jsonrpc/errors.js';
import { McpServer } from '../../src/server.js';
import { clientAddressKey } from '../../src/transports/http/server/clientAddress.js';
import { connect } from '../support/harness.js';

const LIMITED = { limit: 2, windowMs: 60_000 };

function limitedServer(): McpServer {
  const server = new McpServer({ name: 'limited', version: '1' }, { onerror: () => {} });
  server.registerTool('work', { rateLimit: LIMITED }, () => 'done');
  return server;
}

/** True when the call was refused by the rate limit (-31429 since issue 11), false when it ran. */
const rateLimited = (call: Promise<{ isError?: boolean }>): Promise<boolean> =>
  call.then(
    (result) => {
      expect(result.isError).toBeUndefined();
      return false;
    },
    (error: unknown) => {
      expect(error).toMatchObject({
        code: ErrorCode.RateLimited,
        message: expect.stringContaining('Rate limit exceeded for tool "work"'),
      });
      return true;
    },
  );

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe('anonymous callers are limited beyond their session', () => {
  it('counts every in-process session without identity together (per process), principals apart', async () => {
    const server = limitedServer();
    const outcomes: boolean[] = [];
    for (let i = 0; i < 3; i++) {
      const c = await connect(server); // a new session per call, as a bypassing client would
      outcomes.push(await rateLimited(c.client.callTool('work')));
    }
    expect(outcomes).toEqual([false, false, true]);
    const alice = await connect(server, { identity: { id: 'alice' } });
    expect(await rateLimited(alice.client.callTool('work'))).toBe(false);
  });

  it.each([
    ['opens a new HTTP session per call', false],
    ['calls a stateless server, where every POST is a session of its own', true],
  ])('limits a client that %s, by its address', async (_how, stateless) => {
    const handler = createHttpHandler(limitedServer(), { stateless });
    const listener = await serveHttp(handler, { port: 0, host: '127.0.0.1' });
    closers.push(
      () => handler.close({ graceMs: 0 }),
      () => listener.close(),
    );
    const outcomes: boolean[] = [];
    for (let i = 0; i < 3; i++) {
      const client = new McpClient({ name: 'hopper', version: '1' }, { protocolEra: 'legacy' });
      await client.connect(new HttpClientTransport(listener.url));
      outcomes.push(await rateLimited(client.callTool('work')));
      await client.close();
    }
    expect(outcomes).toEqual([false, false, true]);
  });

  it('tells addresses apart, counts an IPv6 /64 as one client, and lets a proxy name the client', async () => {
    const call = (handler: StreamableHttpHandler, clientAddress: string, headers = {}) =>
      handler
        .fetch(
          new Request('http://127.0.0.1:3000/mcp', {
            method: 'POST',
            headers: {
              host: '127.0.0.1:3000',
              accept: 'application/json, text/event-stream',
              'content-type': 'application/json',
              'mcp-protocol-version': '2025-11-25',
              ...headers,
            },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: 1,
              method: 'tools/call',
              params: { name: 'work', arguments: {} },
            }),
          }),
          { clientAddress },
        )
        .then(async (r) => {
          const body = (await r.json()) as { result?: unknown; error?: { code: number } };
          if (r.status === 200) {
            expect(body.result).toBeDefined();
            return false;
          }
          // Refused: 429 with Retry-After, the JSON-RPC error as the body (issue 11).
          expect([r.status, Number(r.headers.get('retry-after')) > 0]).toEqual([429, true]);
          expect(body.error?.code).toBe(ErrorCode.RateLimited);
          return true;
        });

    const direct = createHttpHandler(limitedServer(), { stateless: true });
    closers.push(() => direct.close({ graceMs: 0 }));
    expect(await call(direct, '203.0.113.7')).toBe(false);
    expect(await call(direct, '::ffff:203.0.113.7')).toBe(false); // the same IPv4 client
    expect(await call(direct, '203.0.113.7')).toBe(true);
    expect(await call(direct, '198.51.100.1')).toBe(false); // another client
    expect(await call(direct, '2001:db8:1:2::1')).toBe(false);
    expect(await call(direct, '2001:db8:1:2:ffff::9')).toBe(false);
    expect(await call(direct, '2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe(true); // same /64
    expect(await call(direct, '2001:db8:1:3::1')).toBe(false); // next /64

    const proxied = createHttpHandler(limitedServer(), {
      stateless: true,
      clientAddress: (request) => request.header('x-forwarded-for') ?? request.clientAddress,
    });
    closers.push(() => proxied.close({ graceMs: 0 }));
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    expect(await call(proxied, '10.0.0.1', from('192.0.2.1'))).toBe(false);
    expect(await call(proxied, '10.0.0.1', from('192.0.2.1'))).toBe(false);
    expect(await call(proxied, '10.0.0.1', from('192.0.2.2'))).toBe(false);
    expect(await call(proxied, '10.0.0.1', from('192.0.2.1'))).toBe(true);
  });
});

describe('unusable rules are refused at configuration time', () => {
  const bad = [
    { limit: 0, windowMs: 1000 },
    { limit: -1, windowMs: 1000 },
    { limit: 1, windowMs: 0 },
    { limit: 1, windowMs: -5 },
    { limit: Number.NaN, windowMs: 1000 },
    { limit: 1, windowMs: Number.POSITIVE_INFINITY },
    { limit: Number.POSITIVE_INFINITY, windowMs: 1000 },
  ];

  it.each(bad)('refuses the server rule %j', (rule) => {
    expect(() => new McpServer({ name: 's', version: '1' }, { rateLimit: rule })).toThrow(
      /rate ?limit .*"(limit|windowMs)" must be a positive finite number/i,
    );
  });

  it.each(bad)('refuses the tool rule %j', (rule) => {
    const server = new McpServer({ name: 's', version: '1' });
    expect(() => server.registerTool('t', { rateLimit: rule }, () => 'x')).toThrow(
      /Tool "t": rate limit "(limit|windowMs)" must be a positive finite number/,
    );
    const tool = server.registerTool('u', {}, () => 'x');
    expect(() => tool.update({ rateLimit: rule })).toThrow(/must be a positive finite number/);
  });

  it('accepts a fractional limit and `false` (exempt)', () => {
    const server = new McpServer({ name: 's', version: '1' }, { rateLimit: LIMITED });
    server.registerTool('half', { rateLimit: { limit: 0.5, windowMs: 1000 } }, () => 'x');
    server.registerTool('free', { rateLimit: false }, () => 'x');
    expect(server.listRegisteredTools()).toHaveLength(2);
  });

  it('refuses deadlines a timer cannot honour (a longer one would fire at once)', () => {
    expect(
      () => new McpServer({ name: 's', version: '1' }, { toolTimeoutMs: Number.POSITIVE_INFINITY }),
    ).toThrow(/toolTimeoutMs must be a positive number/);
    const server = new McpServer({ name: 's', version: '1' });
    expect(() => server.registerTool('t', { timeoutMs: 2 ** 31 }, () => 'x')).toThrow(
      /timeoutMs must be a positive number of milliseconds up to 2147483647/,
    );
  });
});

describe('clientAddressKey', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['::1', '0:0:0:0::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:0DB8:0001:0002:0003:0004:0005:0006', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::ffff:10.1.2.3', '10.1.2.3'],
    ['64:ff9b::192.0.2.33', '64:ff9b:0:0::/64'],
    ['not an address', 'not an address'],
  ])('%s -> %s', (address, key) => {
    expect(clientAddressKey(address)).toBe(key);
  });
});

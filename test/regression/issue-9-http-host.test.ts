/**
 * Issue 9, HTTP: `Host: localhost:PORT@evil.com` and duplicate `Host` headers were accepted (only
 * the part before the first colon was compared), and Origin checks ignored the port. The Host is
 * now parsed as one `host[:port]` (400 when malformed or given twice, 403 when not allowed), and an
 * Origin must be listed (scheme, host and port) or be the server's own origin (the request's Host).
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createHttpHandler,
  type HttpHandlerOptions,
  type StreamableHttpHandler,
} from '../../src/http.js';
import { serveHttp, toNodeListener, type HttpListener } from '../../src/node.js';
import { McpServer } from '../../src/server.js';
import { BASE, initializeMessage, post } from '../support/httpHarness.js';

function handlerOf(origins?: HttpHandlerOptions['origins']) {
  const server = new McpServer({ name: 'host', version: '1' });
  return createHttpHandler(server, { onerror: () => {}, ...(origins ? { origins } : {}) });
}

async function statusOf(handler: StreamableHttpHandler, headers: Record<string, string>) {
  const response = await post(handler, initializeMessage(), headers);
  const body = (await response.json()) as { error?: { code: number; message: string } };
  return { status: response.status, error: body.error };
}

/** Sends raw header lines to a Node server (duplicates and all) and returns status and body. */
function rawPost(port: number, headerLines: readonly string[]): Promise<string> {
  const body = JSON.stringify(initializeMessage());
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', setHost: false });
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      req.appendHeader(line.slice(0, colon), line.slice(colon + 1).trim());
    }
    req.setHeader('content-type', 'application/json');
    req.setHeader('accept', 'application/json, text/event-stream');
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve(`${res.statusCode} ${text}`));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the Host header is one well-formed host[:port]', () => {
  it.each([
    ['userinfo hiding another host', 'localhost:3000@evil.com'],
    ['userinfo before loopback', 'evil.com@localhost:3000'],
    ['two values (duplicate headers joined)', 'localhost:3000, evil.com'],
    ['a path', 'localhost:3000/x'],
    ['whitespace inside', 'localhost :3000'],
    ['a port that is no number', 'localhost:30x0'],
    ['a port out of range', 'localhost:70000'],
    ['an unbracketed IPv6 address with port', '::1:3000'],
    ['a malformed IPv6 literal', '[::1::2]:3000'],
    ['a backslash', 'localhost\\evil.com'],
  ])('refuses %s with 400', async (_what, host) => {
    const { status, error } = await statusOf(handlerOf(), { host });
    expect(status).toBe(400);
    expect(error?.code).toBe(-32600);
  });

  it('still accepts loopback names with or without port, IPv6 in brackets, any case', async () => {
    for (const host of [
      'localhost',
      'localhost:3000',
      'LOCALHOST:3000',
      '127.0.0.1:1',
      '[::1]:8080',
      '[::1]',
      'localhost.:3000',
    ]) {
      expect((await statusOf(handlerOf(), { host })).status, host).toBe(200);
    }
  });

  it('refuses a well-formed host that is not allowed with 403', async () => {
    for (const host of ['evil.com', 'evil.com:3000', '[::2]:3000', '127.0.0.2:3000']) {
      expect((await statusOf(handlerOf(), { host })).status, host).toBe(403);
    }
  });

  it('matches a configured host:port on its port', async () => {
    const handler = handlerOf({ allowedHosts: ['mcp.example.com:8443'] });
    expect((await statusOf(handler, { host: 'mcp.example.com:8443' })).status).toBe(200);
    expect((await statusOf(handler, { host: 'mcp.example.com:9000' })).status).toBe(403);
    expect(() => handlerOf({ allowedHosts: ['a b'] })).toThrow(/allowedHosts: "a b"/);
  });

  it('refuses a malformed Host even when the allow-list is off', async () => {
    const handler = handlerOf({ allowedHosts: false });
    expect((await statusOf(handler, { host: 'anything.example:1' })).status).toBe(200);
    expect((await statusOf(handler, { host: 'localhost:1@evil.com' })).status).toBe(400);
  });

  describe('over Node http', () => {
    let listener: HttpListener | undefined;
    afterEach(async () => {
      await listener?.close();
      listener = undefined;
    });

    it('refuses duplicate Host headers and the userinfo trick (fast path and fetch path)', async () => {
      const handler = handlerOf();
      for (const viaFetch of [false, true]) {
        listener = await serveHttp(viaFetch ? (r: Request) => handler.fetch(r) : handler);
        const port = listener.port;
        const ok = await rawPost(port, [`Host: localhost:${port}`]);
        expect(ok.slice(0, 3)).toBe('200');
        const duplicate = await rawPost(port, [`Host: localhost:${port}`, 'Host: evil.com']);
        expect(duplicate).toMatch(/^400 .*The Host header must be given once/);
        const userinfo = await rawPost(port, [`Host: localhost:${port}@evil.com`]);
        expect(userinfo).toMatch(/^400 .*is not a valid host\[:port\]/);
        await listener.close();
        listener = undefined;
      }
      expect(typeof toNodeListener(handler)).toBe('function');
    });
  });
});

describe('Origin is compared by scheme, host and port', () => {
  it('accepts the server own origin only: another port on loopback is another origin', async () => {
    const handler = handlerOf();
    const at = (origin: string, host = 'localhost:3000') => statusOf(handler, { host, origin });
    expect((await at('http://localhost:3000')).status).toBe(200);
    expect((await at('http://LOCALHOST:3000')).status).toBe(200);
    expect((await at('https://localhost:3000')).status).toBe(200);
    expect((await at('http://localhost', 'localhost')).status).toBe(200);
    expect((await at('http://localhost:80', 'localhost')).status).toBe(200);
    // Before the fix, any loopback origin passed whatever its port.
    expect((await at('http://localhost:5173')).status).toBe(403);
    expect((await at('http://127.0.0.1:3000')).status).toBe(403);
    expect((await at('http://localhost:3000@evil.com')).status).toBe(403);
    expect((await at('null')).status).toBe(403);
    expect((await at('http://localhost:3000, http://evil.com')).status).toBe(403);
    expect((await at('ftp://localhost:3000')).status).toBe(403);
  });

  it('compares listed origins by scheme, host and port (default ports may be left out)', async () => {
    const handler = handlerOf({
      allowedHosts: ['mcp.example.com'],
      allowedOrigins: ['https://app.example.com', 'http://localhost:5173/'],
    });
    const at = (origin: string) => statusOf(handler, { host: 'mcp.example.com', origin });
    expect((await at('https://app.example.com')).status).toBe(200);
    expect((await at('https://app.example.com:443')).status).toBe(200);
    expect((await at('https://APP.example.com')).status).toBe(200);
    expect((await at('http://localhost:5173')).status).toBe(200);
    expect((await at('http://app.example.com')).status).toBe(403);
    expect((await at('https://app.example.com:8443')).status).toBe(403);
    expect((await at('http://localhost:5174')).status).toBe(403);
    expect(() => handlerOf({ allowedOrigins: ['app.example.com'] })).toThrow(/allowedOrigins/);
  });

  it('passes the conformance suite DNS-rebinding inputs', async () => {
    const handler = handlerOf();
    const url = new URL(BASE);
    expect(
      (await statusOf(handler, { host: 'evil.example.com', origin: 'http://evil.example.com' }))
        .status,
    ).toBe(403);
    expect((await statusOf(handler, { host: url.host, origin: url.origin })).status).toBe(200);
  });
});

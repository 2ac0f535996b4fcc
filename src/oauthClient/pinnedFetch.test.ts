import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDestination, type NetworkPolicy } from './networkPolicy.js';
import { nodePinnedFetch, pinnedLookup } from './pinnedFetch.js';

const V4 = { address: '127.0.0.1', family: 4 } as const;
const V6 = { address: '::1', family: 6 } as const;

function lookup(options: { family?: number; all?: boolean }, name = 'as.example') {
  return new Promise<{ error: unknown; address: unknown; family: unknown }>((resolve) =>
    pinnedLookup('as.example', [V4, V6])(name, options, (error, address, family) =>
      resolve({ error, address, family }),
    ),
  );
}

describe('pinnedLookup', () => {
  it('answers the checked addresses, never DNS', async () => {
    expect(await lookup({})).toMatchObject({ error: null, address: '127.0.0.1', family: 4 });
    expect(await lookup({ family: 6 })).toMatchObject({ address: '::1', family: 6 });
    expect(await lookup({ all: true })).toMatchObject({
      address: [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ],
    });
  });

  it('fails for another name, or a family none of them has', async () => {
    expect((await lookup({}, 'other.example')).error).toMatchObject({ code: 'ENOTFOUND' });
    const v4only = await new Promise<unknown>((resolve) =>
      pinnedLookup('as.example', [V4])('as.example', { family: 6 }, (error) => resolve(error)),
    );
    expect(v4only).toMatchObject({ code: 'ENOTFOUND' });
  });
});

describe('checkDestination', () => {
  const policy = (answers: string[]): NetworkPolicy => ({
    allowLoopbackHttp: true,
    allowPrivateNetwork: false,
    resolveHost: async () => answers,
  });

  it('says which addresses a host name was checked at; none for an address literal', async () => {
    const url = new URL('https://as.example/token');
    expect(await checkDestination(url, policy(['203.0.113.9', '2001:db8::1']), 'x')).toEqual([
      { address: '203.0.113.9', family: 4 },
      { address: '2001:db8::1', family: 6 },
    ]);
    expect(await checkDestination(new URL('https://203.0.113.9/'), policy([]), 'x')).toBe(
      undefined,
    );
    await expect(checkDestination(url, policy([]), 'x')).rejects.toMatchObject({
      reason: 'forbidden_address',
    });
  });

  it('connects to localhost only at its loopback addresses', async () => {
    const url = new URL('http://localhost:8080/');
    expect(await checkDestination(url, policy(['203.0.113.9', '127.0.0.1']), 'x')).toEqual([V4]);
    await expect(checkDestination(url, policy(['203.0.113.9']), 'x')).rejects.toMatchObject({
      reason: 'forbidden_address',
    });
  });
});

describe('nodePinnedFetch', () => {
  let server: Server;
  let port = 0;
  const seen: Array<{ host: string | undefined; body: string }> = [];

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        seen.push({ host: req.headers.host, body });
        if (req.url === '/empty') return void res.writeHead(204).end();
        res.setHeader('set-cookie', ['a=1', 'b=2']);
        res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":"é"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends to the checked address with the host name in Host, and reads the answer', async () => {
    const pinned = await nodePinnedFetch();
    if (!pinned) throw new Error('no pinned fetch under Node');
    const signal = AbortSignal.timeout(5_000);
    const url = new URL(`http://as.example:${port}/token`);
    const response = await pinned(
      url,
      { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'grant=ü', signal },
      [V4],
    );
    expect(response.status).toBe(201);
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.json()).toEqual({ ok: 'é' });
    expect(seen.at(-1)).toEqual({ host: `as.example:${port}`, body: 'grant=ü' });
    const empty = await pinned(
      new URL(`http://as.example:${port}/empty`),
      { method: 'GET', headers: {}, signal },
      [V4],
    );
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
  });
});

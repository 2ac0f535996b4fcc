// LoopbackRedirectReceiver: one redirect per authorization on 127.0.0.1, a static page with a
// CSP that allows nothing, 404 for anything else, and a clean end on timeout, abort or close.
import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalError } from '../jsonrpc/errors.js';
import { LoopbackRedirectReceiver } from './loopbackReceiver.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request over a fresh connection, with the headers given (Host included). */
function send(
  uri: string,
  options: { path?: string; method?: string; host?: string } = {},
): Promise<Answer> {
  const url = new URL(uri);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: url.port,
        method: options.method ?? 'GET',
        path: options.path ?? `${url.pathname}${url.search}`,
        headers: { host: options.host ?? url.host },
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The error a promise rejects with. */
async function rejection(promise: Promise<unknown>): Promise<LocalError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LocalError);
  return error as LocalError;
}

/** True once nothing listens at the URI any more. */
async function refused(uri: string): Promise<boolean> {
  const error = await send(uri).then(
    () => undefined,
    (e: unknown) => e as NodeJS.ErrnoException,
  );
  return error?.code === 'ECONNREFUSED';
}

const receivers: LoopbackRedirectReceiver[] = [];
function receiver(options: ConstructorParameters<typeof LoopbackRedirectReceiver>[0] = {}) {
  const r = new LoopbackRedirectReceiver(options);
  receivers.push(r);
  return r;
}
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

describe('the redirect', () => {
  it('is received once on http://127.0.0.1:<port>/callback; then the listener is gone', async () => {
    const r = receiver();
    const uri = await r.start();
    expect(uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(await r.start()).toBe(uri);
    const waited = r.wait();
    const answer = await send(`${uri}?code=abc&state=s1&iss=https%3A%2F%2Fas.example`);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('You can close this window');
    const query = await waited;
    expect(Object.fromEntries(query)).toEqual({
      code: 'abc',
      state: 's1',
      iss: 'https://as.example',
    });
    expect(await refused(uri)).toBe(true);
  });

  it('sends the person back where the application says, as plain text', async () => {
    const r = receiver({ returnTo: 'the <b>console</b>' });
    const uri = await r.start();
    void r.wait().catch(() => {});
    const answer = await send(`${uri}?code=abc&state=s1`);
    expect(answer.body).toContain('return to the &#60;b&#62;console&#60;/b&#62;.');
    expect(answer.body).not.toContain('<b>');
  });

  it('that arrives before wait() is kept', async () => {
    const r = receiver();
    const uri = await r.start();
    expect((await send(`${uri}?error=access_denied&state=s`)).status).toBe(200);
    expect(await r.start()).toBe(uri);
    expect((await r.wait()).get('error')).toBe('access_denied');
  });

  it('is answered with a static page: no script, a CSP that allows nothing, nothing echoed', async () => {
    const r = receiver();
    const uri = await r.start();
    const waited = r.wait();
    const hostile = encodeURIComponent('<script>alert(1)</script>');
    const answer = await send(`${uri}?code=${hostile}&state=${hostile}`);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['content-security-policy']).toBe(
      "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body).not.toMatch(/script|alert/i);
    expect((await waited).get('code')).toBe('<script>alert(1)</script>');
  });

  it('an error page names a plain error code, never a description or markup', async () => {
    for (const [error, shown] of [
      ['access_denied', '(access_denied)'],
      ['<b>bold</b>', undefined],
    ] as const) {
      const r = receiver();
      const uri = await r.start();
      const waited = r.wait();
      const description = encodeURIComponent('<img src=x onerror=alert(1)> call 555-0100');
      const answer = await send(
        `${uri}?error=${encodeURIComponent(error)}&error_description=${description}`,
      );
      expect(answer.status).toBe(200);
      expect(answer.body).toContain('did not grant access');
      if (shown) expect(answer.body).toContain(shown);
      expect(answer.body).not.toMatch(/<b>|<img|555-0100|bold/);
      expect((await waited).get('error_description')).toContain('555-0100');
    }
  });
});

describe('anything else gets a 404 and leaves the receiver waiting', () => {
  it.each([
    ['another path', { path: '/favicon.ico' }],
    ['a longer path', { path: '/callback/x?code=1' }],
    ['a prefix', { path: '/callbackx?code=1' }],
    ['POST', { method: 'POST', path: '/callback?code=1' }],
    ['PUT', { method: 'PUT', path: '/callback?code=1' }],
    ['HEAD', { method: 'HEAD', path: '/callback?code=1' }],
    ['no code nor error', { path: '/callback?state=1' }],
    ['another Host (DNS rebinding)', { path: '/callback?code=1', host: 'evil.example' }],
    ['localhost as Host', { path: '/callback?code=1', host: 'localhost' }],
    ['an absolute-form target', { path: 'http://127.0.0.1/callback?code=1' }],
  ] as Array<[string, { path: string; method?: string; host?: string }]>)(
    '%s',
    async (_what, options) => {
      const r = receiver();
      const uri = await r.start();
      const port = new URL(uri).port;
      const waited = r.wait();
      const host = options.host === undefined ? undefined : `${options.host}:${port}`;
      const answer = await send(uri, { ...options, ...(host ? { host } : {}) });
      expect(answer.status).toBe(404);
      if (options.method !== 'HEAD') expect(answer.body).toContain('Not found');
      expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
      expect((await send(`${uri}?code=good`)).status).toBe(200);
      expect((await waited).get('code')).toBe('good');
    },
  );
});

describe('the end of waiting', () => {
  it('times out with a timeout LocalError, and stops listening', async () => {
    const r = receiver({ timeoutMs: 50 });
    const uri = await r.start();
    const error = await rejection(r.wait());
    expect(error.code).toBe('timeout');
    expect(error.message).toContain('no answer from the authorization server');
    expect(await refused(uri)).toBe(true);
  });

  it('an abort rejects with aborted (also when already aborted), and stops listening', async () => {
    const r = receiver();
    const uri = await r.start();
    const controller = new AbortController();
    const waited = r.wait(controller.signal);
    controller.abort(new Error('user quit'));
    const error = await rejection(waited);
    expect(error.code).toBe('aborted');
    expect((error.cause as Error).message).toBe('user quit');
    expect(await refused(uri)).toBe(true);
    const again = receiver();
    await again.start();
    expect((await rejection(again.wait(AbortSignal.abort()))).code).toBe('aborted');
  });

  it('close() rejects a wait with closed, and stops listening', async () => {
    const r = receiver();
    const uri = await r.start();
    const waited = r.wait();
    await r.close();
    expect((await rejection(waited)).code).toBe('closed');
    expect(await refused(uri)).toBe(true);
    await r.close();
  });

  it('a listener that fails ends the wait with a transport error, not the process', async () => {
    const r = receiver();
    await r.start();
    const waited = r.wait();
    // What Node does when accepting a connection fails (EMFILE...): an 'error' on the server.
    const server = (r as unknown as { round: { server: Server } }).round.server;
    server.emit('error', new Error('accept EMFILE'));
    const error = await rejection(waited);
    expect(error.code).toBe('transport');
    expect(error.message).toContain('accept EMFILE');
  });

  it('wait() before start() is refused', async () => {
    expect((await rejection(receiver().wait())).code).toBe('not-connected');
  });

  it('after a redirect was handed over, start() listens anew for the next authorization', async () => {
    const r = receiver();
    const first = await r.start();
    const waited = r.wait();
    await send(`${first}?code=1`);
    expect((await waited).get('code')).toBe('1');
    await expect(r.wait()).rejects.toThrow('start() the receiver before wait()');
    const second = await r.start();
    const next = r.wait();
    await send(`${second}?code=2`);
    expect((await next).get('code')).toBe('2');
  });
});

describe('the port', () => {
  it('is the one given, and one in use is a clear transport error', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const error = await rejection(receiver({ port }).start());
      expect(error.code).toBe('transport');
      expect(error.message).toContain(`cannot listen on 127.0.0.1:${port}`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    const r = receiver({ port });
    expect(await r.start()).toBe(`http://127.0.0.1:${port}/callback`);
    const custom = receiver({ path: '/oauth/back' });
    expect(await custom.start()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/back$/);
  });
});

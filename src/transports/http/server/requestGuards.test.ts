import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpHandler } from '../../../http.js';
import { serveHttp, type HttpListener } from '../../../node.js';
import { McpServer } from '../../../server.js';
import { OriginGuard, type HeaderReader } from './requestGuards.js';

const headersOf =
  (values: Record<string, string>): HeaderReader =>
  (name) =>
    values[name] ?? null;

describe('OriginGuard: the verdict remembered per connection', () => {
  it('judges again whenever Host or Origin differs on the same connection', () => {
    const guard = new OriginGuard({ allowedOrigins: ['https://app.example.com'] });
    const connection = {};
    const verdict = (values: Record<string, string>) =>
      guard.problem(headersOf(values), undefined, connection)?.failure;
    expect(verdict({ host: 'localhost:3000' })).toBeUndefined();
    expect(verdict({ host: 'localhost:3000' })).toBeUndefined();
    expect(verdict({ host: 'evil.example.com' })).toBe('forbidden');
    expect(verdict({ host: 'localhost:3000@evil.com' })).toBe('badHost');
    expect(verdict({ host: 'localhost:3000' })).toBeUndefined();
    expect(verdict({ host: 'localhost:3000', origin: 'http://evil.example.com' })).toBe(
      'forbidden',
    );
    expect(verdict({ host: 'localhost:3000', origin: 'https://app.example.com' })).toBeUndefined();
    expect(verdict({ host: 'localhost:3000', origin: 'http://localhost:3000' })).toBeUndefined();
    expect(verdict({ host: 'localhost:3000', origin: 'http://localhost:4000' })).toBe('forbidden');
    expect(verdict({})).toBe('badHost');
  });

  it('keeps connections apart', () => {
    const guard = new OriginGuard({});
    const good = {};
    const bad = {};
    expect(guard.problem(headersOf({ host: '127.0.0.1' }), undefined, good)).toBeUndefined();
    expect(guard.problem(headersOf({ host: 'evil.example.com' }), undefined, bad)?.failure).toBe(
      'forbidden',
    );
    expect(guard.problem(headersOf({ host: '127.0.0.1' }), undefined, good)).toBeUndefined();
    expect(guard.problem(headersOf({ host: 'evil.example.com' }), undefined, bad)?.failure).toBe(
      'forbidden',
    );
  });
});

/** Sends requests one after another on one keep-alive connection; returns their status codes. */
async function statusesOnOneConnection(
  port: number,
  requests: ReadonlyArray<Record<string, string>>,
): Promise<number[]> {
  const socket: Socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let buffered = '';
  const waiters: Array<() => void> = [];
  socket.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('latin1');
    waiters.shift()?.();
  });
  /** One whole response (head and Content-Length body) from the buffer, when it is there. */
  const take = (): number | undefined => {
    const end = buffered.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const head = buffered.slice(0, end);
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
    if (buffered.length < end + 4 + length) return undefined;
    buffered = buffered.slice(end + 4 + length);
    return Number(head.slice(9, 12));
  };
  const statuses: number[] = [];
  const body = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
  try {
    for (const headers of requests) {
      const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
      socket.write(
        `POST /mcp HTTP/1.1\r\n${lines.join('')}content-type: application/json\r\n` +
          `accept: application/json, text/event-stream\r\nmcp-session-id: none\r\n` +
          `content-length: ${body.length}\r\n\r\n${body}`,
      );
      let status = take();
      while (status === undefined) {
        await new Promise<void>((resolve) => waiters.push(resolve));
        status = take();
      }
      statuses.push(status);
    }
  } finally {
    socket.destroy();
  }
  return statuses;
}

describe('the Node adapter: Host and Origin on a keep-alive connection', () => {
  let listener: HttpListener | undefined;
  afterEach(async () => {
    await listener?.close();
    listener = undefined;
  });

  it('checks every request, though the connection repeats or changes its headers', async () => {
    const server = new McpServer({ name: 'guard', version: '1' });
    listener = await serveHttp(createHttpHandler(server, { onerror: () => {} }));
    const host = `127.0.0.1:${listener.port}`;
    // 404: the checks passed and the (made-up) session is unknown; 403 or 400: refused.
    const statuses = await statusesOnOneConnection(listener.port, [
      { host },
      { host },
      { host: 'evil.example.com' },
      { host },
      { host, origin: 'http://evil.example.com' },
      { host, origin: `http://${host}` },
      { host: `${host}@evil.com` },
      { host },
    ]);
    expect(statuses).toEqual([404, 404, 403, 404, 403, 404, 400, 404]);
  });
});

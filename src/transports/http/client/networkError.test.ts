import { describe, expect, it } from 'vitest';
import { LocalError } from '../../../jsonrpc/errors.js';
import { connectionError, ConnectionError } from './networkError.js';
import { StreamableHttpClientTransport } from './streamableClient.js';

const url = new URL('http://127.0.0.1:4000/mcp');

/** What undici throws: "fetch failed" with the system error as its cause. */
function fetchFailed(cause: object): TypeError {
  return new TypeError('fetch failed', { cause });
}

describe('connectionError (issue 8)', () => {
  it('names the URL and the errno found in the cause chain', () => {
    const refused = connectionError(
      'POST',
      url,
      fetchFailed(
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4000'), {
          code: 'ECONNREFUSED',
          errno: -111,
        }),
      ),
    );
    expect(refused).toBeInstanceOf(ConnectionError);
    expect(refused).toMatchObject({
      message: 'POST http://127.0.0.1:4000/mcp: connect ECONNREFUSED 127.0.0.1:4000',
      url: url.href,
      errno: 'ECONNREFUSED',
      unreachable: true,
    });
    const tls = connectionError(
      'GET',
      url,
      fetchFailed(
        Object.assign(new Error('self-signed certificate'), {
          code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
        }),
      ),
    ) as ConnectionError;
    expect(tls.message).toBe(
      'GET http://127.0.0.1:4000/mcp: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)',
    );
    expect(tls.unreachable).toBe(true);
    const several = connectionError(
      'GET',
      url,
      fetchFailed(
        new AggregateError(
          [Object.assign(new Error('connect ENETUNREACH ::1'), { code: 'ENETUNREACH' })],
          '',
        ),
      ),
    ) as ConnectionError;
    expect(several).toMatchObject({ errno: 'ENETUNREACH', unreachable: true });
    const reset = connectionError(
      'GET',
      url,
      fetchFailed(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })),
    ) as ConnectionError;
    expect(reset).toMatchObject({ errno: 'UND_ERR_SOCKET', unreachable: false });
    expect(reset.message).toContain('other side closed (UND_ERR_SOCKET)');
    const dns = connectionError(
      'POST',
      new URL('http://nowhere.invalid/mcp'),
      fetchFailed(
        Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), {
          code: 'ENOTFOUND',
          hostname: 'nowhere.invalid',
        }),
      ),
    ) as ConnectionError;
    expect(dns).toMatchObject({
      message: 'POST http://nowhere.invalid/mcp: getaddrinfo ENOTFOUND nowhere.invalid',
      errno: 'ENOTFOUND',
      unreachable: true,
    });
    const bare = connectionError(
      'POST',
      url,
      fetchFailed(new Error('bad port')),
    ) as ConnectionError;
    expect(bare).toMatchObject({
      message: 'POST http://127.0.0.1:4000/mcp: bad port',
      errno: undefined,
    });
    const abort = new DOMException('aborted', 'AbortError');
    expect(connectionError('POST', url, abort)).toBe(abort);
  });
});

/** A fetch whose POST answers with an SSE stream that breaks after one event, and whose GETs fail as told. */
function droppingServer(get: () => Promise<Response>): { fetch: typeof fetch; gets: () => number } {
  let gets = 0;
  const fake = (async (_input: unknown, init?: RequestInit) => {
    if (init?.method === 'GET') {
      gets += 1;
      return get();
    }
    const body = JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as {
      id?: number;
      method: string;
    };
    if (body.id === undefined) return new Response(null, { status: 202 });
    let pulls = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // The priming event (an id to resume from, retry 20 ms), then the connection breaks.
        if (pulls++ === 0)
          controller.enqueue(new TextEncoder().encode('id: 1\nretry: 20\ndata: \n\n'));
        else controller.error(new Error('connection reset'));
      },
    });
    return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
  }) as typeof fetch;
  return { fetch: fake, gets: () => gets };
}

async function lostRequest(transport: StreamableHttpClientTransport): Promise<Error> {
  return new Promise<Error>((resolve) => {
    transport.onfailure = (_id, error) => resolve(error);
    void transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } });
  });
}

describe('resuming a lost stream (issue 8)', () => {
  it('gives up after two refused reconnections, naming the URL and errno', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4000'), {
      code: 'ECONNREFUSED',
    });
    const server = droppingServer(() => Promise.reject(fetchFailed(refused)));
    const transport = new StreamableHttpClientTransport(url, {
      fetch: server.fetch,
      standaloneStream: false,
    });
    const error = await lostRequest(transport);
    expect(server.gets()).toBe(2);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toBe(
      'The response stream from http://127.0.0.1:4000/mcp was lost and 2 reconnections failed: GET http://127.0.0.1:4000/mcp: connect ECONNREFUSED 127.0.0.1:4000',
    );
    await transport.close();
  });

  it('keeps the full schedule for transient failures (5xx)', async () => {
    const server = droppingServer(async () => new Response('busy', { status: 503 }));
    const transport = new StreamableHttpClientTransport(url, {
      fetch: server.fetch,
      standaloneStream: false,
      maxReconnectAttempts: 4,
    });
    const error = await lostRequest(transport);
    expect(server.gets()).toBe(4);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect(error.message).toContain(
      '4 reconnections failed: GET http://127.0.0.1:4000/mcp: HTTP 503',
    );
    await transport.close();
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { McpClient, ResponseCache } from '../../client.js';
import {
  createHttpHandler,
  HttpClientTransport,
  StreamableHttpClientTransport,
} from '../../http.js';
import type { Tool } from '../../protocol/types.js';
import { McpServer, type ServerOptions } from '../../server/mcpServer.js';
import { createLinkedPair } from '../../transports/memory.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** Polls `condition` every 10 ms, for at most 5 s. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 5_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function server(options: ServerOptions = {}): McpServer {
  const s = new McpServer({ name: 's', version: '1' }, options);
  s.registerTool('first', {}, () => 'one');
  return s;
}

/** A toolwire server behind an in-process fetch that records each POST's Mcp-Method. */
function endpoint(s: McpServer) {
  const handler = createHttpHandler(s, { onerror: () => {} });
  const methods: string[] = [];
  const fetcher = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    methods.push(request.headers.get('mcp-method') ?? request.method);
    return handler.fetch(request);
  };
  const transport = (headers: Record<string, string> = {}) =>
    new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp', { fetch: fetcher, headers });
  return { methods, transport };
}

async function connected(
  transport: StreamableHttpClientTransport | ReturnType<typeof createLinkedPair>[0],
  options: ConstructorParameters<typeof McpClient>[1] = {},
) {
  const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'modern', ...options });
  await client.connect(transport);
  cleanup.push(() => client.close());
  return client;
}

const count = (methods: string[], method: string) => methods.filter((m) => m === method).length;

describe('2026 cache hints on the client', () => {
  it('serves tools/list from the cache while ttlMs lasts', async () => {
    const { methods, transport } = endpoint(server({ cacheHints: { ttlMs: 60_000 } }));
    const client = await connected(transport());
    await client.listTools();
    await client.listTools();
    expect(count(methods, 'tools/list')).toBe(1);
  });

  it('lists every time when the server says ttlMs 0 (the default)', async () => {
    const { methods, transport } = endpoint(server());
    const client = await connected(transport());
    await client.listTools();
    await client.listTools();
    expect(count(methods, 'tools/list')).toBe(2);
  });

  it('responseCache: false caches nothing', async () => {
    const { methods, transport } = endpoint(server({ cacheHints: { ttlMs: 60_000 } }));
    const client = await connected(transport(), { responseCache: false });
    await client.listTools();
    await client.listTools();
    expect(count(methods, 'tools/list')).toBe(2);
  });

  it('a shared cache: public listings serve other credentials, private ones only the same', async () => {
    for (const [cacheScope, listings] of [
      ['public', 1],
      ['private', 2],
    ] as const) {
      const { methods, transport } = endpoint(
        server({ cacheHints: { ttlMs: 60_000, cacheScope } }),
      );
      const shared = new ResponseCache();
      const alice = await connected(transport({ authorization: 'Bearer alice' }), {
        responseCache: shared,
      });
      const bob = await connected(transport({ authorization: 'Bearer bob' }), {
        responseCache: shared,
      });
      const alice2 = await connected(transport({ authorization: 'Bearer alice' }), {
        responseCache: shared,
      });
      await alice.listTools();
      await bob.listTools();
      await alice2.listTools();
      expect(count(methods, 'tools/list'), cacheScope).toBe(listings);
    }
  });
});

describe('subscriptions/listen on the client', () => {
  for (const via of ['HTTP', 'a linked pair (stdio-like)'] as const) {
    it(`over ${via}: follows list_changed, refreshing past a fresh cached listing`, async () => {
      const s = server({ cacheHints: { ttlMs: 60_000 } });
      const changes: Tool[][] = [];
      let client: McpClient;
      if (via === 'HTTP')
        client = await connected(endpoint(s).transport(), {
          onToolsChanged: (t) => changes.push(t),
        });
      else {
        const [a, b] = createLinkedPair();
        await s.connect(b);
        client = await connected(a, { onToolsChanged: (t) => changes.push(t) });
      }
      expect((await client.listTools()).map((t) => t.name)).toEqual(['first']);
      await until(() => client.listening, 'the listen stream');
      s.registerTool('second', {}, () => 'two');
      await until(() => changes.length > 0, 'onToolsChanged');
      expect(changes.at(-1)?.map((t) => t.name)).toEqual(['first', 'second']);
      expect(client.cachedTools?.map((t) => t.name)).toEqual(['first', 'second']);
      await client.close();
      expect(client.listening).toBe(false);
    });
  }

  it('a stream that drops is opened again, and the tools are listed again (changes may have been missed)', async () => {
    const s = server();
    const handler = createHttpHandler(s, { onerror: () => {} });
    let listens = 0;
    // The first listen stream ends right after its acknowledgement, without a response.
    const fetcher = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const response = await handler.fetch(request);
      if (request.headers.get('mcp-method') !== 'subscriptions/listen' || listens++ > 0)
        return response;
      const reader = response.body?.getReader();
      const first = await reader?.read();
      await reader?.cancel();
      return new Response(first?.value, { status: 200, headers: response.headers });
    };
    const changes: Tool[][] = [];
    const client = await connected(
      new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp', { fetch: fetcher }),
      { onToolsChanged: (tools) => changes.push(tools) },
    );
    await client.listTools();
    await until(() => listens === 2 && client.listening, 'the second listen stream');
    await until(() => changes.length === 1, 'the listing after the reopened stream');
    expect(changes[0]?.map((t) => t.name)).toEqual(['first']);
  });

  it('is not opened without onToolsChanged, unless listen: true', async () => {
    const plain = endpoint(server());
    await connected(plain.transport());
    const asked = endpoint(server());
    const client = await connected(asked.transport(), { listen: true });
    await until(() => client.listening, 'the listen stream');
    expect(count(plain.methods, 'subscriptions/listen')).toBe(0);
    expect(count(asked.methods, 'subscriptions/listen')).toBe(1);
  });

  it('closing the client closes its listen stream on the server (HTTP: the stream is the cancellation)', async () => {
    const s = server();
    const { methods, transport } = endpoint(s);
    const client = await connected(transport(), { listen: true });
    await until(() => client.listening, 'the listen stream');
    const listens = (s as unknown as { listens: { size: number } }).listens;
    expect(listens.size).toBe(1);
    await client.close();
    await until(() => listens.size === 0, 'the server to see the stream closed');
    // Nothing is posted to cancel it: on 2026-07-28 closing the stream is the cancellation.
    expect(count(methods, 'notifications/cancelled')).toBe(0);
  });
});

describe('a 2026 stream the client ends', () => {
  it('is cancelled by the client itself, whatever its fetch does with the request’s signal', async () => {
    const s = server();
    const handler = createHttpHandler(s, { onerror: () => {} });
    let cancelled = false;
    // A fetch that ignores the signal: the response body is the client's to cancel.
    const fetcher = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const unsignalled = new Request(request.url, {
        method: request.method,
        headers: request.headers,
        body: await request.text(),
      });
      const response = await handler.fetch(unsignalled);
      if (request.headers.get('mcp-method') !== 'subscriptions/listen' || !response.body)
        return response;
      const reader = response.body.getReader();
      const body = new ReadableStream<Uint8Array>({
        pull: async (controller) => {
          const next = await reader.read();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
        cancel: async (reason) => {
          cancelled = true;
          await reader.cancel(reason);
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const client = await connected(
      new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp', { fetch: fetcher }),
      { listen: true },
    );
    await until(() => client.listening, 'the listen stream');
    await client.close();
    await until(() => cancelled, 'the body to be cancelled');
    const listens = (s as unknown as { listens: { size: number } }).listens;
    await until(() => listens.size === 0, 'the server to see the stream closed');
  });
});

describe('cancelling a 2026 call over HTTP', () => {
  it('closes the request’s stream: the handler sees its signal abort, and nothing is posted', async () => {
    const s = new McpServer({ name: 's', version: '1' });
    let aborted = false;
    let started = false;
    s.registerTool('slow', {}, async (_args, ctx) => {
      started = true;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 5_000);
        ctx.signal.addEventListener('abort', () => {
          aborted = true;
          clearTimeout(timer);
          resolve();
        });
      });
      return 'done';
    });
    const { methods, transport } = endpoint(s);
    const client = await connected(transport());
    const controller = new AbortController();
    const call = client.callTool('slow', {}, { signal: controller.signal });
    await until(() => started, 'the tool to start');
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
    await until(() => aborted, 'the handler’s signal');
    expect(count(methods, 'notifications/cancelled')).toBe(0);
  });
});

describe('a 2025 client against a server that serves 2026-07-28 only, over HTTP', () => {
  it('gets the -32022 (HTTP 400) with what the server supports, and tries no HTTP+SSE GET', async () => {
    // As the official SDK v2's 2026-only endpoint answers an initialize.
    const methods: string[] = [];
    const fetcher = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      methods.push(request.method);
      if (request.method !== 'POST') return new Response(null, { status: 405 });
      const { id } = (await request.json()) as { id: number };
      return Response.json(
        {
          jsonrpc: '2.0',
          id,
          error: {
            code: -32022,
            message: 'Unsupported protocol version: 2025-11-25',
            data: { supported: ['2026-07-28'], requested: '2025-11-25' },
          },
        },
        { status: 400 },
      );
    };
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'legacy' });
    const http = new HttpClientTransport('http://127.0.0.1:3000/mcp', { fetch: fetcher });
    const error = await client.connect(http).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'] } });
    expect(methods).toEqual(['POST']);
  });
});

describe('a 2026 call result as the client returns it', () => {
  it('has no resultType: the envelope stays on the wire (a host may forward it to a 2025 peer)', async () => {
    const { transport } = endpoint(server());
    const client = await connected(transport());
    const result = await client.callTool('first');
    expect(result.content).toEqual([{ type: 'text', text: 'one' }]);
    expect('resultType' in result).toBe(false);
    // _meta (the server's identity) is valid in every revision: it stays.
    expect(Object.keys(result).sort()).toEqual(['_meta', 'content']);
  });
});

describe('log messages on a 2026 session', () => {
  for (const via of ['HTTP', 'a linked pair (stdio-like)'] as const) {
    it(`over ${via}: onLog gets them all; setLoggingLevel sends the level in each request’s _meta`, async () => {
      const s = new McpServer({ name: 's', version: '1' });
      s.registerTool('chatty', {}, (_args, ctx) => {
        ctx.log.debug('details');
        ctx.log.error('trouble');
        return 'said';
      });
      const logs: string[] = [];
      const onLog = (message: { level: string; data: unknown }) =>
        logs.push(`${message.level} ${String(message.data)}`);
      let client: McpClient;
      if (via === 'HTTP') client = await connected(endpoint(s).transport(), { onLog });
      else {
        const [a, b] = createLinkedPair();
        await s.connect(b);
        client = await connected(a, { onLog });
      }
      await client.callTool('chatty');
      expect(logs).toEqual(['debug details', 'error trouble']);
      logs.length = 0;
      await client.setLoggingLevel('error');
      await client.callTool('chatty');
      expect(logs).toEqual(['error trouble']);
    });
  }

  it('without onLog, asks for none (the server sends none)', async () => {
    const s = new McpServer({ name: 's', version: '1' });
    s.registerTool('chatty', {}, (_args, ctx) => {
      ctx.log.error('trouble');
      return 'said';
    });
    const [a, b] = createLinkedPair();
    const seen: string[] = [];
    const send = b.send.bind(b);
    Object.assign(b, {
      send: (message: { method?: string }) => {
        if (message.method) seen.push(message.method);
        return send(message as never);
      },
    });
    await s.connect(b);
    const client = await connected(a);
    await client.callTool('chatty');
    expect(seen).not.toContain('notifications/message');
  });
});

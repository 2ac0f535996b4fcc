/**
 * Issue 9, resource exhaustion on the HTTP side: what waits for an SSE client that reads slowly
 * was bounded only on Node (the connection was cut past 1 MiB, also in the middle of a long
 * result), not at all through `handler.fetch`, on a resumption, on another instance of a cluster
 * or on the HTTP+SSE transport; every progress notification waited, and the event store's bound
 * dropped the OLDEST events, responses included. Now a connection is written to only while it
 * keeps up (1 MiB unsent at most); the rest waits in the event store, where progress is
 * coalesced per token (the latest value wins), other notifications are bounded (1000, 1 MiB per
 * stream, dropped oldest first and reported once) and responses are never dropped.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createHttpHandler,
  MemoryClusterHub,
  MemoryEventStore,
  type HttpHandlerOptions,
  type StreamableHttpHandler,
} from '../../src/http.js';
import { serveHttp } from '../../src/node.js';
import { McpServer, type ToolContext } from '../../src/server.js';
import {
  EventReader,
  getStream,
  initializeMessage,
  openSession,
  post,
} from '../support/httpHarness.js';

const KIB = 1024;
const MIB = 1024 * KIB;
const PAD = 'p'.repeat(1000);
const PROGRESS = 5000; // 5 MB of progress
const LOGS = 3000; // 3 MB of logs

interface Flood {
  readonly handler: StreamableHttpHandler;
  readonly reports: string[];
  /** Resolves when the tool has sent everything (its result comes next). */
  readonly flooded: Promise<void>;
  /** Lets the tool start its flood (`gate: true`). */
  release: () => void;
}

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close().catch(() => {});
});

/** A server whose `flood` tool sends PROGRESS progress notifications, then LOGS log messages. */
function floodServer(
  options: HttpHandlerOptions & { gate?: boolean; progress?: number } = {},
): Flood {
  const { gate, progress = PROGRESS, ...handlerOptions } = options;
  const server = new McpServer({ name: 'flood', version: '1' });
  const reports: string[] = [];
  let done!: () => void;
  const flooded = new Promise<void>((r) => (done = r));
  let release!: () => void;
  const started = new Promise<void>((r) => (release = r));
  if (!gate) release();
  server.registerTool('echo', {}, () => 'echo');
  const floodOn = async (ctx: ToolContext): Promise<void> => {
    ctx.progress(0, { message: 'started' });
    await started;
    for (let i = 1; i <= progress; i++) {
      ctx.progress(i, { message: PAD });
      if (i % 500 === 0) await new Promise((r) => setTimeout(r, 0));
    }
    for (let i = 1; i <= LOGS; i++) ctx.log.info(`log ${i} ${PAD}`);
    done();
  };
  server.registerTool('flood', {}, async (_a, ctx) => {
    await floodOn(ctx);
    return 'flooded';
  });
  // Asks the client first, floods while the question waits, then answers with the reply.
  server.registerTool('askFlood', {}, async (_a, ctx) => {
    const answer = ctx.elicit({
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    await floodOn(ctx);
    return `hello ${String((await answer).content?.['name'])}`;
  });
  const handler = createHttpHandler(server, {
    onerror: (e) => reports.push(e instanceof Error ? e.message : String(e)),
    retryMs: 20,
    ...handlerOptions,
  });
  open.push(handler);
  return { handler, reports, flooded, release };
}

const floodCall = (id: number | string = 2) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'flood', arguments: {}, _meta: { progressToken: 'tok' } },
});

interface Seen {
  bytes: number;
  progress: number[];
  logs: number;
  results: Array<string | number>;
}

/** What an SSE body held: its size, the progress values, the log count, the response ids. */
function seen(text: string): Seen {
  const out: Seen = { bytes: text.length, progress: [], logs: 0, results: [] };
  for (const block of text.split('\n\n')) {
    const data = block
      .split('\n')
      .find((line) => line.startsWith('data: '))
      ?.slice(6);
    if (!data) continue;
    const message = JSON.parse(data) as {
      id?: string | number;
      method?: string;
      params?: { progress?: number };
      result?: unknown;
    };
    if (message.method === 'notifications/progress')
      out.progress.push(message.params?.progress ?? -1);
    else if (message.method === 'notifications/message') out.logs++;
    else if (message.result !== undefined && message.id !== undefined) out.results.push(message.id);
  }
  return out;
}

/**
 * Reads a body until a chunk contains `marker` (each SSE event arrives in one chunk); the rest
 * stays unread.
 */
async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  marker: string,
): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    const chunk = decoder.decode(value, { stream: true });
    text += chunk;
    if (chunk.includes(marker)) return text;
  }
}

/** Every progress value seen increases, and the last is the final one. */
function expectLatestProgress(progress: readonly number[], last: number): void {
  expect(progress.at(-1)).toBe(last);
  expect(progress.every((p, i) => i === 0 || p > (progress[i - 1] as number))).toBe(true);
}

describe('a client that does not read its POST stream', () => {
  it('through handler.fetch: at most 1 MiB waits in the body, the rest is coalesced, the response arrives', async () => {
    const flood = floodServer();
    const session = await openSession(flood.handler);
    const response = await post(flood.handler, floodCall(), { 'mcp-session-id': session });
    await flood.flooded;
    await new Promise((r) => setTimeout(r, 20));
    const got = seen(await response.text());
    // Before the fix the body held all 8 MB.
    expect(got.bytes).toBeLessThan(2.5 * MIB);
    expectLatestProgress(got.progress, PROGRESS);
    expect(got.logs).toBeLessThanOrEqual(1000 + MIB / 1000);
    expect(got.results).toEqual([2]);
    expect(flood.reports.filter((r) => r.includes('not reading'))).toHaveLength(1);
  });

  it('in stateless mode too: the session lasts until the response is written', async () => {
    const flood = floodServer({ stateless: true });
    const response = await post(flood.handler, floodCall(), {
      'mcp-protocol-version': '2025-11-25',
    });
    await flood.flooded;
    await new Promise((r) => setTimeout(r, 20));
    const got = seen(await response.text());
    expect(got.bytes).toBeLessThan(2.5 * MIB);
    expectLatestProgress(got.progress, PROGRESS);
    expect(got.results).toEqual([2]);
    expect(flood.handler.sessionCount).toBe(0);
  });

  it('over Node http: the connection is not cut; it catches up from the store, coalesced', async () => {
    const flood = floodServer({ progress: 20_000 });
    const listener = await serveHttp(flood.handler);
    open.push(listener);
    const url = listener.url;
    const session = await openSession(flood.handler);
    const text = await new Promise<string>((resolve, reject) => {
      const req = request(url, {
        method: 'POST',
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          'mcp-session-id': session,
        },
      });
      req.on('response', (res) => {
        res.pause(); // the client reads nothing until the tool has sent everything
        let body = '';
        void flood.flooded.then(() =>
          setTimeout(() => {
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.resume();
          }, 50),
        );
        res.on('end', () => resolve(body));
        res.on('aborted', () => resolve(`aborted after ${body.length} bytes`));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(JSON.stringify(floodCall()));
    });
    // Before the fix the connection was destroyed past 1 MiB of backlog, result unsent.
    const got = seen(text);
    expect(got.results).toEqual([2]);
    expectLatestProgress(got.progress, 20_000);
    // 40 MB were produced; what was written is the socket buffers, 1 MiB and the coalesced rest.
    expect(got.bytes).toBeLessThan(16 * MIB);
  }, 30_000);
});

describe('a detached stream, resumed later', () => {
  it('keeps a request the client must answer (notifications are dropped first), the latest progress, bounded logs', async () => {
    const flood = floodServer();
    const init = await post(flood.handler, {
      ...initializeMessage(),
      params: {
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: {} },
        clientInfo: { name: 'asker', version: '1' },
      },
    });
    const session = init.headers.get('mcp-session-id') ?? '';
    await init.text();
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    await post(flood.handler, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
    const first = new EventReader(
      await post(
        flood.handler,
        { ...floodCall(), params: { name: 'askFlood', _meta: { progressToken: 'tok' } } },
        headers,
      ),
    );
    const priming = await first.next();
    await first.disconnect();
    await flood.flooded;
    const resumed = new EventReader(
      await getStream(flood.handler, {
        ...headers,
        'last-event-id': priming.id ?? '',
      }),
    );
    const replayed: Array<Record<string, unknown> & { id?: unknown; method?: string }> = [];
    for (;;) {
      const message = await resumed.nextMessage(5000);
      replayed.push(message);
      if (message.method === 'elicitation/create') {
        // Before the fix the store kept the newest 1000 events: this request was gone, and the
        // call waited for an answer forever.
        await post(
          flood.handler,
          {
            jsonrpc: '2.0',
            id: message.id,
            result: { action: 'accept', content: { name: 'Ada' } },
          },
          headers,
        );
      }
      if ('result' in message) break;
    }
    const got = seen(replayed.map((m) => `data: ${JSON.stringify(m)}`).join('\n\n'));
    expect(replayed.filter((m) => m.method === 'elicitation/create')).toHaveLength(1);
    expect(replayed.at(-1)).toMatchObject({ id: 2, result: { content: [{ text: 'hello Ada' }] } });
    expectLatestProgress(got.progress, PROGRESS);
    expect(got.logs).toBeLessThanOrEqual(1000);
    expect(got.bytes).toBeLessThan(1.5 * MIB);
  });

  it('bounds a resumption whose client reads slowly while events keep coming', async () => {
    const flood = floodServer({ gate: true });
    const session = await openSession(flood.handler);
    const first = new EventReader(
      await post(flood.handler, floodCall(), { 'mcp-session-id': session }),
    );
    await first.next(); // priming
    const started = await first.next();
    await first.disconnect();
    const resumed = await getStream(flood.handler, {
      'mcp-session-id': session,
      'last-event-id': started.id ?? '',
    });
    flood.release(); // the flood starts while the resumed body is not read
    await flood.flooded;
    await new Promise((r) => setTimeout(r, 20));
    const got = seen(await resumed.text());
    expect(got.bytes).toBeLessThan(2.5 * MIB);
    expectLatestProgress(got.progress, PROGRESS);
    expect(got.results).toEqual([2]);
  });

  it('bounds a resumption on another instance of a cluster whose client reads slowly', async () => {
    const hub = new MemoryClusterHub();
    const a = floodServer({ gate: true, cluster: hub.instance() });
    const b = floodServer({ cluster: hub.instance() });
    const session = await openSession(a.handler);
    const first = new EventReader(
      await post(a.handler, floodCall(), { 'mcp-session-id': session }),
    );
    await first.next();
    const started = await first.next();
    await first.disconnect();
    const resumed = await getStream(b.handler, {
      'mcp-session-id': session,
      'last-event-id': started.id ?? '',
    });
    expect(resumed.status).toBe(200);
    a.release();
    await a.flooded;
    await new Promise((r) => setTimeout(r, 20));
    const got = seen(await resumed.text());
    // Before the fix every event followed from the store was queued in the body: 8 MB.
    expect(got.bytes).toBeLessThan(2.5 * MIB);
    expectLatestProgress(got.progress, PROGRESS);
    expect(got.results).toEqual([2]);
  });
});

describe('an HTTP+SSE (2024-11-05) client that does not read its stream', () => {
  it('gets at most 1 MiB queued, then the waiting messages coalesced and bounded, and every response', async () => {
    const flood = floodServer();
    const stream = await getStream(flood.handler, {}, '/sse');
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    const head = await readUntil(reader, 'sessionId=');
    const endpoint = /data: (\S+)/.exec(head)?.[1] ?? '';
    const send = async (message: unknown) =>
      expect((await post(flood.handler, message, {}, endpoint)).status).toBe(202);
    await send(initializeMessage(1, '2024-11-05'));
    await readUntil(reader, '"id":1');
    await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await send(floodCall());
    await flood.flooded;
    await new Promise((r) => setTimeout(r, 20));
    const got = seen(await readUntil(reader, '"flooded"'));
    await reader.cancel();
    expect(got.bytes).toBeLessThan(2.5 * MIB);
    expectLatestProgress(got.progress, PROGRESS);
    expect(got.results).toEqual([2]);
    expect(flood.reports.filter((r) => r.includes('HTTP+SSE client is not reading'))).toHaveLength(
      1,
    );
  });
});

describe('the memory event store', () => {
  const note = (n: number) => ({
    jsonrpc: '2.0' as const,
    method: 'notifications/message',
    params: { level: 'info', data: `${n} ${PAD}` },
  });
  const progress = (token: string, n: number) => ({
    jsonrpc: '2.0' as const,
    method: 'notifications/progress',
    params: { progressToken: token, progress: n },
  });

  it('never drops a response or a request, coalesces progress per token, bounds the rest', async () => {
    const drops: string[] = [];
    const store = new MemoryEventStore({
      maxEventsPerStream: 10,
      maxBytesPerStream: 8 * KIB,
      ondrop: ({ streamId }) => drops.push(streamId),
    });
    let seq = 0;
    const append = (message: Parameters<typeof store.append>[0]['message']) =>
      store.append({ streamId: 's', sessionId: 'x', eventId: `s:${++seq}`, message });
    await append({ jsonrpc: '2.0', id: 1, result: {} });
    await append({ jsonrpc: '2.0', id: 'ask', method: 'elicitation/create', params: {} });
    for (let i = 1; i <= 100; i++) {
      await append(progress('a', i));
      await append(progress('b', i));
      await append(note(i));
    }
    await append({ jsonrpc: '2.0', id: 2, error: { code: -1, message: 'late' } });
    const replay = await store.replayAfter('s:0');
    const messages = (replay?.events ?? []).map(
      (e) =>
        e.message as {
          id?: unknown;
          method?: string;
          params?: { progressToken?: string; progress?: number };
        },
    );
    expect(
      messages.filter((m) => m.method === undefined || m.id !== undefined).map((m) => m.id),
    ).toEqual([1, 'ask', 2]);
    expect(
      messages
        .filter((m) => m.method === 'notifications/progress')
        .map((m) => [m.params?.progressToken, m.params?.progress]),
    ).toEqual([
      ['a', 100],
      ['b', 100],
    ]);
    const logs = messages.filter((m) => m.method === 'notifications/message');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.length).toBeLessThanOrEqual(8);
    // Ids stay in order, and a resumption from the middle gets only what follows.
    const ids = (replay?.events ?? []).map((e) => Number(e.id.slice(2)));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(drops).toEqual(['s']);
  });
});

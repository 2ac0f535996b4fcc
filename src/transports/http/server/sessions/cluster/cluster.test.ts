/**
 * Several Streamable HTTP instances in one process sharing sessions, events and tasks, behind a
 * balancer the tests steer: every request may reach any instance. The same tests run over the
 * in-memory cluster and over Redis (a real redis-server), so both implement one contract.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  BASE,
  EventReader,
  initializeMessage,
  postHeaders,
} from '../../../../../../test/support/httpHarness.js';
import { sleep } from '../../../../../../test/support/scriptedTransport.js';
import { McpClient } from '../../../../../client/mcpClient.js';
import { createHttpHandler, type StreamableHttpHandler } from '../../../../../http.js';
import { McpServer } from '../../../../../server.js';
import { MemoryTaskStore } from '../../../../../tasks/memoryTaskStore.js';
import type { TaskStore } from '../../../../../tasks/taskStore.js';
import { createRedisScaleOut } from '../../../../../redis.js';
import { startRedis, type TestRedis } from '../../../../../../test/support/redis.js';
import type { HttpCluster } from './cluster.js';
import type { LoggingMessageParams } from '../../../../../protocol/types.js';
import { MemoryClusterHub } from './memoryCluster.js';
import { StreamableHttpClientTransport } from '../../../client/streamableClient.js';

interface Instance {
  readonly server: McpServer;
  readonly handler: StreamableHttpHandler;
  /** Calls of `slow` aborted on this instance. */
  aborted: number;
}

/** Routes each request to an instance: round robin, or `pin` while it is set. */
class Balancer {
  pin: number | undefined;
  private next = 0;
  /** Which instance served each request, in order (method and target). */
  readonly log: Array<{ method: string; instance: number }> = [];

  constructor(readonly instances: Instance[]) {}

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const index = this.pin ?? this.next++ % this.instances.length;
    this.log.push({ method: request.method, instance: index });
    return (this.instances[index] as Instance).handler.fetch(request);
  };
}

const open: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close().catch(() => {});
});

/** What the instances of one cluster share. */
interface Shared {
  readonly clusters: HttpCluster[];
  readonly tasks: TaskStore[];
}

/** Where the shared state lives. */
interface Backend {
  readonly name: string;
  share(count: number): Promise<Shared>;
}

let redis: TestRedis | undefined;
let prefixes = 0;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

const BACKENDS: Backend[] = [
  {
    name: 'memory',
    share: async (count) => {
      const hub = new MemoryClusterHub();
      const tasks = new MemoryTaskStore();
      return {
        clusters: Array.from({ length: count }, () => hub.instance()),
        tasks: Array.from({ length: count }, () => tasks),
      };
    },
  },
  {
    name: 'redis',
    share: async (count) => {
      const keyPrefix = `cluster${++prefixes}:`;
      const url = (redis as TestRedis).url;
      const scaleOuts = await Promise.all(
        Array.from({ length: count }, () => createRedisScaleOut({ url, keyPrefix })),
      );
      for (const s of scaleOuts) open.push({ close: () => s.close() });
      return {
        clusters: scaleOuts.map((s) => s.cluster),
        tasks: scaleOuts.map((s) => s.taskStore),
      };
    },
  },
];

/** Probes until `ok` holds (bus messages take a moment to arrive), answering the last probe. */
async function eventually<T>(probe: () => Promise<T>, ok: (t: T) => boolean): Promise<T> {
  let value = await probe();
  for (const deadline = Date.now() + 2000; !ok(value) && Date.now() < deadline;) {
    await sleep(5);
    value = await probe();
  }
  return value;
}

/** Initializes a session through `fetch` (a balancer or one instance); answers its id. */
async function initializeVia(
  fetch: (url: string, init: RequestInit) => Promise<Response>,
  headers: Record<string, string> = {},
): Promise<string> {
  const init = await fetch(`${BASE}/mcp`, {
    method: 'POST',
    headers: postHeaders(headers),
    body: JSON.stringify(initializeMessage()),
  });
  await init.text();
  return init.headers.get('mcp-session-id') as string;
}

for (const backend of BACKENDS) {
  async function cluster(count = 3) {
    const shared = await backend.share(count);
    const instances: Instance[] = [];
    for (let i = 0; i < count; i++) {
      const server = new McpServer(
        { name: 'clustered', version: '1' },
        { onerror: () => {}, tasks: { store: shared.tasks[i] as TaskStore, pollIntervalMs: 50 } },
      );
      const instance: Instance = { server, handler: undefined as never, aborted: 0 };
      server.registerTool('where', {}, () => `instance ${i}`);
      server.registerTool('ask', {}, async (_a, ctx) => {
        const answer = await ctx.elicit({
          message: 'Name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        });
        return `hello ${String(answer.content?.['name'])} from ${i}`;
      });
      server.registerTool('slow', {}, async (_a, ctx) => {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, 5000);
          ctx.signal.addEventListener('abort', () => {
            clearTimeout(t);
            instance.aborted++;
            resolve();
          });
        });
        return 'slow done';
      });
      server.registerTool('chatty', {}, (_a, ctx) => {
        ctx.log.debug('debug line');
        ctx.log.warning('warning line');
        return 'logged';
      });
      server.registerTool(
        'poll',
        { inputSchema: z.object({ n: z.number() }) },
        async ({ n }, ctx) => {
          ctx.progress(1);
          ctx.closeStream();
          await sleep(80);
          ctx.progress(2);
          return `polled ${n} on ${i}`;
        },
      );
      server.registerTool('job', { execution: { taskSupport: 'required' } }, async (_a, ctx) => {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, 150);
          ctx.signal.addEventListener('abort', () => {
            clearTimeout(t);
            instance.aborted++;
            resolve();
          });
        });
        return `job done on ${i}`;
      });
      const handler = createHttpHandler(server, {
        cluster: shared.clusters[i] as HttpCluster,
        retryMs: 20,
        onerror: () => {},
      });
      (instance as { handler: StreamableHttpHandler }).handler = handler;
      open.push({ close: () => handler.close({ graceMs: 0 }) });
      open.push({ close: () => server.close() });
      instances.push(instance);
    }
    return { instances, balancer: new Balancer(instances) };
  }

  async function client(
    balancer: Balancer,
    options: ConstructorParameters<typeof McpClient>[1] = {},
    transportOptions: { standaloneStream?: boolean } = {},
  ) {
    const c = new McpClient(
      { name: 'lb-client', version: '1' },
      { protocolEra: 'legacy', ...options },
    );
    await c.connect(
      new StreamableHttpClientTransport(`${BASE}/mcp`, {
        fetch: balancer.fetch,
        reconnectDelayMs: 20,
        ...transportOptions,
      }),
    );
    open.push(c);
    return c;
  }

  describe(`cluster (${backend.name}): one session served by every instance`, () => {
    it('initializes on one instance and serves calls on all of them', async () => {
      const { balancer } = await cluster();
      const c = await client(balancer, {}, { standaloneStream: false });
      const answers = new Set<string>();
      for (let i = 0; i < 6; i++) {
        const result = await c.callTool('where', {});
        answers.add((result.content[0] as { text: string }).text);
      }
      expect(answers).toEqual(new Set(['instance 0', 'instance 1', 'instance 2']));
    });

    it('a session deleted through one instance is gone on all (404), including its replicas', async () => {
      const { balancer } = await cluster();
      const session = await initializeVia(balancer.fetch);
      const ping = (id: number) =>
        balancer.fetch(`${BASE}/mcp`, {
          method: 'POST',
          headers: postHeaders({ 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }),
          body: JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }),
        });
      for (let i = 0; i < 3; i++) expect((await ping(10 + i)).status).toBe(200);
      balancer.pin = 1;
      const deleted = await balancer.fetch(`${BASE}/mcp`, {
        method: 'DELETE',
        headers: { 'mcp-session-id': session },
      });
      expect(deleted.status).toBe(200);
      // The deleting instance and the directory forget it at once; replicas as the bus tells them.
      expect((await ping(20)).status).toBe(404);
      for (const pin of [0, 1, 2]) {
        balancer.pin = pin;
        const status = () => ping(30 + pin).then((r) => r.status);
        expect(await eventually(status, (s) => s === 404)).toBe(404);
      }
    });

    it("another principal's session is not found on any instance", async () => {
      const shared = await backend.share(2);
      const instances = shared.clusters.map((cluster) => {
        const server = new McpServer({ name: 'auth', version: '1' }, { onerror: () => {} });
        const handler = createHttpHandler(server, {
          cluster,
          onerror: () => {},
          authenticate: (r) => ({ id: r.header('authorization') ?? 'anonymous' }),
        });
        open.push({ close: () => handler.close({ graceMs: 0 }) });
        return handler;
      });
      const session = await initializeVia(
        (url, init) => (instances[0] as StreamableHttpHandler).fetch(new Request(url, init)),
        { authorization: 'alice' },
      );
      const ping = (who: string) =>
        instances[1]?.fetch(
          new Request(`${BASE}/mcp`, {
            method: 'POST',
            headers: postHeaders({ authorization: who, 'mcp-session-id': session }),
            body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
          }),
        );
      expect((await ping('mallory'))?.status).toBe(404);
      expect((await ping('alice'))?.status).toBe(200);
      expect((await ping('mallory'))?.status).toBe(404);
    });

    it("routes the client's answer to an elicitation back to the instance that asked", async () => {
      const { balancer } = await cluster();
      const c = await client(
        balancer,
        {
          handlers: {
            elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }),
          },
        },
        { standaloneStream: false },
      );
      for (let i = 0; i < 3; i++) {
        const result = await c.callTool('ask', {});
        expect((result.content[0] as { text: string }).text).toMatch(/^hello Ada from \d$/);
      }
    });

    it('a cancellation reaching another instance aborts the call where it runs', async () => {
      const { balancer, instances } = await cluster();
      const c = await client(balancer, {}, { standaloneStream: false });
      const controller = new AbortController();
      const call = c.callTool('slow', {}, { signal: controller.signal });
      await sleep(50);
      controller.abort();
      await expect(call).rejects.toMatchObject({ code: 'aborted' });
      for (let i = 0; i < 100 && instances.every((x) => x.aborted === 0); i++) await sleep(10);
      expect(instances.reduce((n, x) => n + x.aborted, 0)).toBe(1);
    });

    it('a log level set through one instance applies on every instance', async () => {
      const { balancer } = await cluster();
      const logs: LoggingMessageParams[] = [];
      const c = await client(balancer, { onLog: (m) => logs.push(m) }, { standaloneStream: false });
      await c.setLoggingLevel('warning');
      await sleep(50); // replicas apply the level as the bus tells them
      for (let i = 0; i < 3; i++) await c.callTool('chatty', {});
      expect(logs.map((l) => l.level)).toEqual(['warning', 'warning', 'warning']);
    });

    it('resumes a dropped response stream on another instance and gets the rest and the response', async () => {
      const { balancer } = await cluster();
      const c = await client(balancer, {}, { standaloneStream: false });
      const progress: number[] = [];
      const result = await c.callTool(
        'poll',
        { n: 7 },
        { onprogress: (p) => progress.push(p.progress) },
      );
      expect((result.content[0] as { text: string }).text).toMatch(/^polled 7 on \d$/);
      expect(progress).toEqual([1, 2]);
      const gets = balancer.log.filter((l) => l.method === 'GET');
      expect(gets.length).toBeGreaterThan(0);
    });
  });

  describe(`cluster (${backend.name}): the GET stream`, () => {
    it('messages not tied to a request reach the GET stream from any instance; list_changed arrives once', async () => {
      const { balancer, instances } = await cluster();
      const statuses: string[] = [];
      const changed: number[] = [];
      const c = await client(balancer, { onToolsChanged: () => changed.push(1) });
      // Let the GET stream open (on whichever instance the balancer picked).
      await sleep(50);
      const result = await c.callTool('job', {}, { ontaskstatus: (t) => statuses.push(t.status) });
      expect((result.content[0] as { text: string }).text).toMatch(/^job done on \d$/);
      // Every instance changes its registry, as an application does through its broadcast.
      for (const instance of instances) instance.server.registerTool('added', {}, () => 'new');
      for (let i = 0; i < 100 && changed.length === 0; i++) await sleep(10);
      await sleep(100);
      expect(changed).toHaveLength(1);
      expect((await c.listTools()).map((t) => t.name)).toContain('added');
    });

    it('a stream of another session is not resumed on any instance', async () => {
      const { balancer, instances } = await cluster();
      balancer.pin = 0;
      const [a, b] = [await initializeVia(balancer.fetch), await initializeVia(balancer.fetch)];
      const get = (session: string, lastEventId?: string) =>
        balancer.fetch(`${BASE}/mcp`, {
          headers: {
            accept: 'text/event-stream',
            'mcp-session-id': session,
            'mcp-protocol-version': '2025-11-25',
            ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
          },
        });
      const stream = new EventReader(await get(a));
      await stream.next(); // priming
      instances[0]?.server.registerTool('changed', {}, () => 'x');
      const seen = await stream.next();
      await stream.disconnect();
      balancer.pin = 1;
      const stolen = await get(b, seen.id);
      expect(stolen.status).toBe(400);
      await stolen.text();
      const own = await get(a, seen.id);
      expect(own.status).toBe(200);
      await own.body?.cancel();
    });

    it('a GET stream resumed on another instance replays what was missed and continues there', async () => {
      const { balancer, instances } = await cluster();
      balancer.pin = 0;
      const session = await initializeVia(balancer.fetch);
      const getHeaders = (extra: Record<string, string> = {}) => ({
        accept: 'text/event-stream',
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-11-25',
        ...extra,
      });
      const first = new EventReader(await balancer.fetch(`${BASE}/mcp`, { headers: getHeaders() }));
      const priming = await first.next();
      let changes = 0;
      const changeOn = (i: number) =>
        (instances[i] as Instance).server.registerTool(`t${i}_${++changes}`, {}, () => 'x');
      changeOn(0);
      const seen = await first.next();
      expect(JSON.parse(seen.data)).toMatchObject({ method: 'notifications/tools/list_changed' });
      expect(priming.id).toBeDefined();
      await first.disconnect();
      await sleep(10);
      // Missed while disconnected: instance 0 still holds the stream and keeps what it sends.
      instances[0]?.server.registerTool('missed', {}, () => 'x');
      await sleep(10);
      balancer.pin = 1;
      const resumed = new EventReader(
        await balancer.fetch(`${BASE}/mcp`, {
          headers: getHeaders({ 'last-event-id': seen.id as string }),
        }),
      );
      expect(await resumed.nextMessage()).toMatchObject({
        method: 'notifications/tools/list_changed',
      });
      await sleep(30); // the takeover: instance 0 ends its stream, instance 1 continues on its own
      changeOn(1);
      const live = await resumed.next();
      expect(JSON.parse(live.data === '' ? (await resumed.next()).data : live.data)).toMatchObject({
        method: 'notifications/tools/list_changed',
      });
      // Instance 0 no longer holds the GET stream: its own changes are not sent twice.
      changeOn(0);
      await expect(resumed.nextMessage(150)).rejects.toThrow('no event in time');
    });
  });
}

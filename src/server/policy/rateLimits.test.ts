import { describe, expect, it } from 'vitest';
import { connect } from '../../../test/support/harness.js';
import { ErrorCode } from '../../jsonrpc/errors.js';
import { McpServer, MemoryRateLimitStore, type RateLimitStore } from '../../server.js';

/** A server whose `slow` tool waits until the test lets it finish. */
function gated(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const errors: string[] = [];
  const server = new McpServer(
    { name: 'limits', version: '1' },
    { onerror: (e, what) => errors.push(`${what}: ${String(e)}`), ...options },
  );
  const gates: Array<() => void> = [];
  server.registerTool(
    'slow',
    { execution: { taskSupport: 'optional' } },
    () => new Promise<string>((resolve) => gates.push(() => resolve('done'))),
  );
  server.registerTool('quick', {}, () => 'quick');
  const openAll = () => gates.splice(0).forEach((open) => open());
  const started = async (n: number) => {
    for (let i = 0; i < 200 && gates.length < n; i++) await new Promise((r) => setTimeout(r, 5));
    expect(gates.length).toBe(n);
  };
  return { server, errors, openAll, started };
}

const concurrencyRefusal = {
  code: ErrorCode.RateLimited,
  message: expect.stringMatching(/Too many calls from this caller are running at once; retry in/),
  data: { limit: 'concurrency', retryAfterMs: expect.any(Number) },
};

describe('rate limits in the call pipeline', () => {
  it.each([
    ['without middleware (the inline path)', false],
    ['through a middleware chain', true],
  ])(
    'caps the calls of one principal running at once, %s, and frees the slot when they end',
    async (_how, chain) => {
      const g = gated({ rateLimit: { concurrentPerPrincipal: 1 } });
      if (chain) g.server.use((_request, next) => next());
      const alice = await connect(g.server, { identity: { id: 'alice' } });
      const bob = await connect(g.server, { identity: { id: 'bob' } });
      const first = alice.client.callTool('slow');
      await g.started(1);
      await expect(alice.client.callTool('quick')).rejects.toMatchObject(concurrencyRefusal);
      expect((await bob.client.callTool('quick')).content).toEqual([
        { type: 'text', text: 'quick' },
      ]); // another principal
      g.openAll();
      expect((await first).content).toEqual([{ type: 'text', text: 'done' }]);
      expect((await alice.client.callTool('quick')).isError).toBeUndefined(); // freed
    },
  );

  it('frees the slot when a middleware inside the stage answers without calling next()', async () => {
    const g = gated({ rateLimit: { concurrentPerPrincipal: 1 } });
    g.server.use(async (request, next) =>
      request.tool?.name === 'quick' ? { content: [{ type: 'text', text: 'cached' }] } : next(),
    );
    const c = await connect(g.server, { identity: { id: 'alice' } });
    for (let i = 0; i < 3; i++)
      expect((await c.client.callTool('quick')).content).toEqual([
        { type: 'text', text: 'cached' },
      ]);
  });

  it('holds the slot of a task-augmented call until the task ends', async () => {
    const g = gated({ rateLimit: { concurrentPerPrincipal: 1 } });
    const c = await connect(g.server, { identity: { id: 'alice' } });
    expect(c.client.protocolVersion).toBe('2025-11-25');
    const task = c.client.callTool('slow', {}, { task: {} });
    await g.started(1);
    // The task was created and answered, but it still runs: the slot is taken.
    await expect(c.client.callTool('quick')).rejects.toMatchObject(concurrencyRefusal);
    g.openAll();
    expect((await task).content).toEqual([{ type: 'text', text: 'done' }]);
    expect((await c.client.callTool('quick')).isError).toBeUndefined();
  });

  it('refuses the call with -32603 and reports it when the store fails', async () => {
    const failing: RateLimitStore = {
      admit: () => Promise.reject(new Error('ECONNREFUSED 127.0.0.1:6379')),
    };
    const g = gated({ rateLimit: { perPrincipal: { limit: 5, windowMs: 1000 }, store: failing } });
    const c = await connect(g.server);
    await expect(c.client.callTool('quick')).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: expect.stringMatching(/Rate limits could not be checked/),
    });
    expect(g.errors.join('\n')).toMatch(/rate limit check failed: Error: ECONNREFUSED/);
  });

  it('counts global and per-principal limits across tools, naming the limit that refused', async () => {
    const g = gated({
      rateLimit: {
        global: { limit: 3, windowMs: 60_000 },
        perPrincipal: { limit: 2, windowMs: 60_000 },
      },
    });
    const alice = await connect(g.server, { identity: { id: 'alice' } });
    const bob = await connect(g.server, { identity: { id: 'bob' } });
    await alice.client.callTool('quick');
    await alice.client.callTool('quick');
    await expect(alice.client.callTool('quick')).rejects.toMatchObject({
      code: ErrorCode.RateLimited,
      data: { limit: 'principal' },
    });
    await bob.client.callTool('quick');
    await expect(bob.client.callTool('quick')).rejects.toMatchObject({
      code: ErrorCode.RateLimited,
      data: { limit: 'global' },
    });
  });
});

describe('useRateLimitStore', () => {
  it('lets a host count several servers in one store, before any session', async () => {
    const shared = new MemoryRateLimitStore();
    const make = () => {
      const s = new McpServer(
        { name: 'instance', version: '1' },
        { rateLimit: { perPrincipal: { limit: 2, windowMs: 60_000 } } },
      );
      s.registerTool('t', {}, () => 't');
      s.useRateLimitStore(shared);
      return s;
    };
    const one = await connect(make(), { identity: { id: 'alice' } });
    const two = await connect(make(), { identity: { id: 'alice' } });
    await one.client.callTool('t');
    await two.client.callTool('t');
    await expect(one.client.callTool('t')).rejects.toMatchObject({ code: ErrorCode.RateLimited });
  });

  it('refuses to change the store while sessions are open, or to take a non-store', async () => {
    const s = new McpServer({ name: 's', version: '1' });
    expect(() => s.useRateLimitStore({} as RateLimitStore)).toThrow(/admit\(\) method/);
    await connect(s);
    expect(() => s.useRateLimitStore(new MemoryRateLimitStore())).toThrow(/Sessions are open/);
  });
});

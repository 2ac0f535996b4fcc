import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { connect } from '../../../test/support/harness.js';
import { ErrorCode, RpcError } from '../../jsonrpc/errors.js';
import { McpServer, ToolError, type Middleware, type MiddlewareRequest } from '../../server.js';

function server(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const errors: string[] = [];
  const s = new McpServer(
    { name: 'mw', version: '1' },
    { onerror: (e, what) => errors.push(`${what}: ${String(e)}`), ...options },
  );
  s.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => text);
  return { server: s, errors };
}

const text = (r: { content: unknown[] }) => (r.content[0] as { text: string }).text;

describe('server middleware', () => {
  it('sees the method, params, session, caller, tool and transport of each request', async () => {
    const { server: s } = server();
    const seen: MiddlewareRequest[] = [];
    s.use((request, next) => {
      seen.push(request);
      return next();
    });
    const c = await connect(s, { identity: { id: 'alice', scopes: ['read'] } });
    await c.client.listTools();
    const result = await c.client.callTool('echo', { text: 'hi' });
    expect(text(result)).toBe('hi');
    await c.client.ping();
    expect(seen.map((r) => r.method)).toEqual(['tools/list', 'tools/call', 'ping']);
    const call = seen[1] as MiddlewareRequest;
    expect(call.params).toMatchObject({ name: 'echo', arguments: { text: 'hi' } });
    expect(call.tool?.name).toBe('echo');
    expect(call.tool?.inputSchema).toMatchObject({ type: 'object' });
    expect(call.identity?.id).toBe('alice');
    expect(call.session.id).toBe(c.session.id);
    expect(call.session.protocolVersion).toBe(c.client.protocolVersion);
    expect(call.networkTransport).toBe('inproc');
    expect(call.signal.aborted).toBe(false);
    expect(seen[0]?.tool).toBeUndefined();
  });

  it('can answer itself, refuse with a protocol error, or fail a call with a ToolError', async () => {
    const { server: s } = server();
    s.use((request, next) => {
      if (request.method === 'tools/list') return { tools: [] };
      const args = request.params?.['arguments'] as { text?: string } | undefined;
      if (args?.text === 'forbidden') throw new RpcError(ErrorCode.InvalidRequest, 'Not allowed');
      if (args?.text === 'tool-error') throw new ToolError('Refused by policy');
      return next();
    });
    const c = await connect(s);
    expect(await c.client.listTools()).toEqual([]);
    await expect(c.client.callTool('echo', { text: 'forbidden' })).rejects.toMatchObject({
      code: ErrorCode.InvalidRequest,
      message: 'Not allowed',
    });
    const refused = await c.client.callTool('echo', { text: 'tool-error' });
    expect(refused).toMatchObject({ isError: true });
    expect(text(refused)).toBe('Refused by policy');
    expect(text(await c.client.callTool('echo', { text: 'ok' }))).toBe('ok');
  });

  it('transforms results, which are then checked like a handler result', async () => {
    const { server: s, errors } = server();
    s.use(async (request, next) => {
      const result = await next();
      if (request.method !== 'tools/call') return result;
      const args = request.params?.['arguments'] as { text: string };
      if (args.text === 'break') return { content: 'not an array' };
      const content = result['content'] as unknown[];
      return { ...result, content: [...content, { type: 'text', text: 'audited' }] };
    });
    const c = await connect(s);
    const result = await c.client.callTool('echo', { text: 'x' });
    expect(result.content).toEqual([
      { type: 'text', text: 'x' },
      { type: 'text', text: 'audited' },
    ]);
    const broken = await c.client.callTool('echo', { text: 'break' });
    expect(broken.isError).toBe(true);
    expect(text(broken)).toContain('produced an invalid result');
    expect(errors.some((e) => e.includes('a middleware returned an invalid result'))).toBe(true);
  });

  it('runs around the built-in stages in the documented order', async () => {
    const { server: s } = server({
      visibility: (tool) => tool.name !== 'hidden',
      rateLimit: { limit: 1, windowMs: 60_000 },
    });
    s.registerTool('hidden', {}, () => 'secret');
    const order: string[] = [];
    const mark =
      (name: string): Middleware =>
      async (request, next) => {
        if (request.method !== 'tools/call') return next();
        order.push(`${name}>`);
        try {
          return await next();
        } finally {
          order.push(`<${name}`);
        }
      };
    s.use(mark('inner')); // default: innermost, around the handler
    s.use(mark('outer'), { before: 'access' });
    s.use(mark('afterAccess'), { after: 'access' });
    s.use(mark('afterRate'), { after: 'rateLimit' });
    const c = await connect(s);

    expect(text(await c.client.callTool('echo', { text: 'a' }))).toBe('a');
    expect(order.splice(0)).toEqual([
      'outer>',
      'afterAccess>',
      'afterRate>',
      'inner>',
      '<inner',
      '<afterRate',
      '<afterAccess',
      '<outer',
    ]);
    // Over the rate limit: refused by the rateLimit stage, inside only what is outside it.
    await expect(c.client.callTool('echo', { text: 'b' })).rejects.toMatchObject({
      code: ErrorCode.RateLimited,
    });
    expect(order.splice(0)).toEqual(['outer>', 'afterAccess>', '<afterAccess', '<outer']);
    // A tool this caller may not see: refused by the access stage.
    await expect(c.client.callTool('hidden', {})).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    expect(order.splice(0)).toEqual(['outer>', '<outer']);
  });

  it('keeps the output stage: a result grown by an inner middleware is still size-limited', async () => {
    const { server: s } = server({ maxResultBytes: 1000 });
    s.use(async (request, next) =>
      request.method === 'tools/call'
        ? { content: [{ type: 'text', text: 'x'.repeat(5000) }] }
        : next(),
    );
    const c = await connect(s);
    const result = await c.client.callTool('echo', { text: 'a' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/over the 1000-byte limit/);
  });

  it("runs a tool's own middleware for that tool only, innermost", async () => {
    const { server: s } = server();
    const order: string[] = [];
    s.registerTool(
      'guarded',
      {
        middleware: [
          async (request, next) => {
            order.push(`own:${request.tool?.name}`);
            const result = await next();
            return { ...result, content: [{ type: 'text', text: 'wrapped' }] };
          },
        ],
      },
      () => 'raw',
    );
    const c = await connect(s);
    // Without server-wide middleware: the tool's own still run.
    expect(text(await c.client.callTool('guarded', {}))).toBe('wrapped');
    expect(text(await c.client.callTool('echo', { text: 'e' }))).toBe('e');
    expect(order.splice(0)).toEqual(['own:guarded']);
    s.use(async (request, next) => {
      if (request.method === 'tools/call') order.push('global');
      return next();
    });
    expect(text(await c.client.callTool('guarded', {}))).toBe('wrapped');
    expect(order).toEqual(['global', 'own:guarded']);
  });

  it("limits the size of what a tool's own middleware returns", async () => {
    const { server: s } = server({ maxResultBytes: 500 });
    s.registerTool(
      'grows',
      { middleware: [async () => ({ content: [{ type: 'text', text: 'y'.repeat(2000) }] })] },
      () => 'small',
    );
    const c = await connect(s);
    const result = await c.client.callTool('grows', {});
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/over the 500-byte limit/);
  });

  it('refuses a second next() with an internal error', async () => {
    const { server: s, errors } = server();
    s.use(async (_request, next) => {
      await next();
      return next();
    });
    const c = await connect(s);
    await expect(c.client.listTools()).rejects.toMatchObject({ code: ErrorCode.InternalError });
    expect(errors.join('\n')).toContain('next() more than once');
  });

  it('lets middleware read and change a tools/list page (cached pages included)', async () => {
    const { server: s } = server();
    s.registerTool('other', {}, () => 'o');
    const c0 = await connect(s);
    expect(await c0.client.listTools()).toHaveLength(2); // builds the cached page
    s.use(async (request, next) => {
      const page = await next();
      if (request.method !== 'tools/list') return page;
      const tools = page['tools'] as Array<{ name: string }>;
      return { ...page, tools: tools.filter((t) => t.name !== 'other') };
    });
    const c = await connect(s);
    expect((await c.client.listTools()).map((t) => t.name)).toEqual(['echo']);
  });

  it('passes a task-augmented call through and still runs the output stage on its result', async () => {
    const { server: s } = server({ maxResultBytes: 600 });
    s.registerTool('big', { execution: { taskSupport: 'optional' } }, async () => 'z'.repeat(3000));
    const seen: string[] = [];
    s.use(async (request, next) => {
      const result = await next();
      if (request.method === 'tools/call') seen.push(Object.keys(result).sort().join(','));
      return result;
    });
    const c = await connect(s, { identity: { id: 'bob' } });
    expect(c.client.protocolVersion).toBe('2025-11-25');
    const result = await c.client.callTool('big', {}, { task: {} });
    expect(seen).toEqual(['task']);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/over the 600-byte limit/);
  });

  it('validates placements', () => {
    const { server: s } = server();
    const mw: Middleware = (_r, next) => next();
    expect(() => s.use(mw, { before: 'nope' as 'access' })).toThrow(/Unknown stage "nope"/);
    expect(() => s.use(mw, {} as { before: 'access' })).toThrow(/exactly one of before and after/);
    expect(() => s.use('x' as unknown as Middleware)).toThrow(/must be a function/);
    expect(() =>
      s.registerTool('bad', { middleware: ['x' as unknown as Middleware] }, () => ''),
    ).toThrow(/middleware must be an array of functions/);
  });
});

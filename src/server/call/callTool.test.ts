import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { connect } from '../../../test/support/harness.js';
import { sleep } from '../../../test/support/scriptedTransport.js';
import { ErrorCode, RpcError } from '../../jsonrpc/errors.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../../protocol/versions.js';
import { McpServer, ToolError, toolError } from '../../server.js';

function calculator(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const errors: string[] = [];
  const server = new McpServer(
    { name: 'calc', version: '1' },
    { onerror: (e, what) => errors.push(`${what}: ${String(e)}`), ...options },
  );
  server.registerTool(
    'divide',
    {
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
        additionalProperties: false,
      } as const,
      outputSchema: {
        type: 'object',
        properties: { quotient: { type: 'number' } },
        required: ['quotient'],
      } as const,
    },
    ({ a, b }) => {
      if (b === 0) throw new ToolError('Cannot divide by zero');
      return { structuredContent: { quotient: a / b } };
    },
  );
  return { server, errors };
}

describe('results', () => {
  it('returns structured content with its JSON text block', async () => {
    const c = await connect(calculator().server);
    expect(await c.client.callTool('divide', { a: 6, b: 3 })).toEqual({
      content: [{ type: 'text', text: '{"quotient":2}' }],
      structuredContent: { quotient: 2 },
    });
  });

  it('can leave structured content out of the text when the tool says so', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool(
      'raw',
      { structuredText: false, outputSchema: z.object({ n: z.number() }) },
      () => ({ structuredContent: { n: 1 } }),
    );
    const c = await connect(server);
    expect(await c.client.callTool('raw')).toEqual({ content: [], structuredContent: { n: 1 } });
  });

  it('turns a ToolError into an isError result with its message', async () => {
    const c = await connect(calculator().server);
    expect(await c.client.callTool('divide', { a: 1, b: 0 })).toEqual({
      content: [{ type: 'text', text: 'Cannot divide by zero' }],
      isError: true,
    });
  });

  it('turns any other throw into a generic isError result without stack or secret, and keeps serving', async () => {
    const { server, errors } = calculator();
    server.registerTool('leaky', {}, () => {
      throw new Error('connect ECONNREFUSED postgres://admin:s3cret@10.0.0.5/db');
    });
    server.registerTool('rejects', {}, () => Promise.reject(new TypeError('x is undefined')));
    const c = await connect(server);
    for (const name of ['leaky', 'rejects']) {
      const result = await c.client.callTool(name);
      expect(result.isError).toBe(true);
      const wire = JSON.stringify(result);
      expect(wire).not.toMatch(/s3cret|ECONNREFUSED|at .*\.ts|x is undefined/);
      expect(wire).toContain(`Tool \\"${name}\\" failed`);
    }
    expect(errors.join('\n')).toContain('s3cret'); // the operator still sees it, on stderr
    expect(await c.client.callTool('divide', { a: 4, b: 2 })).toMatchObject({
      structuredContent: { quotient: 2 },
    });
  });

  it('exposes handler error messages only when configured', async () => {
    const server = new McpServer(
      { name: 's', version: '1' },
      { exposeErrorMessages: true, onerror: () => {} },
    );
    server.registerTool('boom', {}, () => {
      throw new Error('visible detail');
    });
    const c = await connect(server);
    expect(await c.client.callTool('boom')).toEqual(toolError('visible detail'));
  });

  it('lets a handler answer with a protocol error by throwing RpcError', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('needs_auth', {}, () => {
      throw new RpcError(ErrorCode.UrlElicitationRequired, 'Authorization required', {
        elicitations: [],
      });
    });
    const c = await connect(server);
    await expect(c.client.callTool('needs_auth')).rejects.toMatchObject({
      code: -32042,
      data: { elicitations: [] },
    });
  });

  it('never sends structured content that breaks the output schema', async () => {
    const { server, errors } = calculator();
    server.registerTool(
      'liar',
      {
        outputSchema: {
          type: 'object',
          properties: { n: { type: 'integer' } },
          required: ['n'],
        } as const,
      },
      () => ({
        structuredContent: { n: 'not a number' as unknown as number },
      }),
    );
    server.registerTool(
      'forgetful',
      { outputSchema: z.object({ n: z.number() }) },
      () => ({ content: [] }) as never,
    );
    const c = await connect(server);
    const liar = await c.client.callTool('liar');
    expect(liar).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: expect.stringContaining('does not match its output schema: /n: must be integer'),
        },
      ],
    });
    expect(liar.structuredContent).toBeUndefined();
    expect(await c.client.callTool('forgetful')).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining('no structured content') }],
    });
    expect(errors.some((e) => e.includes('broke its output schema'))).toBe(true);
  });

  it('rejects results that are not valid content and reports why', async () => {
    const server = new McpServer({ name: 's', version: '1' }, { onerror: () => {} });
    const bad: unknown[] = [
      42,
      { content: 'text' },
      { content: [{ type: 'video', data: 'x' }] },
      { content: [{ type: 'image', data: 'not base64!!', mimeType: 'image/png' }] },
      { content: [{ type: 'text', text: 'x', annotations: { priority: 7 } }] },
      { content: [], isError: 'yes' },
    ];
    bad.forEach((value, i) => server.registerTool(`bad_${i}`, {}, () => value as never));
    const c = await connect(server);
    for (let i = 0; i < bad.length; i++) {
      expect(await c.client.callTool(`bad_${i}`)).toMatchObject({
        isError: true,
        content: [{ text: expect.stringContaining('returned an invalid result') }],
      });
    }
  });
});

describe('argument validation, per revision', () => {
  for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
    it(`${version}: invalid arguments never reach the handler`, async () => {
      let calls = 0;
      const server = new McpServer({ name: 's', version: '1' });
      server.registerTool(
        'greet',
        { inputSchema: z.object({ name: z.string().min(1) }) },
        ({ name }) => {
          calls++;
          return `hello ${name}`;
        },
      );
      const c = await connect(server, { version });
      const call = c.client.callTool('greet', { name: 42 });
      if (version === '2025-11-25') {
        // SEP-1303: input validation errors are tool execution errors the model can correct.
        expect(await call).toMatchObject({
          isError: true,
          content: [
            {
              type: 'text',
              text: expect.stringContaining('Invalid arguments for tool "greet": /name:'),
            },
          ],
        });
      } else {
        await expect(call).rejects.toMatchObject({
          code: ErrorCode.InvalidParams,
          message: expect.stringContaining('/name'),
          data: { issues: [expect.objectContaining({ path: '/name' })] },
        });
      }
      expect(calls).toBe(0);
      expect(await c.client.callTool('greet', { name: 'Ada' })).toMatchObject({
        content: [{ text: 'hello Ada' }],
      });
      expect(c.problems()).toEqual([]);
    });
  }

  it('answers structural problems with -32602 in every revision', async () => {
    const c = await connect(calculator().server);
    c.checkServerOnly(); // this test sends malformed requests on purpose
    const conn = (
      c.client as unknown as {
        connection: { request: (m: string, p: unknown) => Promise<unknown> };
      }
    ).connection;
    await expect(conn.request('tools/call', { name: 5 })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    await expect(
      conn.request('tools/call', { name: 'divide', arguments: [1, 2] }),
    ).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    await expect(conn.request('tools/call', { name: 'nope' })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: 'Unknown tool: nope',
    });
  });

  it('validates exactly the object it dispatches; __proto__ changes no prototype', async () => {
    let received: unknown;
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool(
      'echo',
      {
        inputSchema: {
          type: 'object',
          properties: { x: { type: 'number' } },
          additionalProperties: false,
        } as const,
      },
      (args) => {
        received = args;
        return 'ok';
      },
    );
    const c = await connect(server);
    const args = JSON.parse('{"__proto__":{"x":"polluted"}}') as Record<string, unknown>;
    const result = await c.client.callTool('echo', args);
    expect(result.isError).toBe(true); // "__proto__" is an extra own property, so it is refused
    expect(received).toBeUndefined();
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });

  it('refuses constructor and prototype keys, at any depth, before the handler runs', async () => {
    let received: Record<string, unknown> | undefined;
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('any', { inputSchema: { type: 'object' } }, (args) => {
      received = args;
      return 'ok';
    });
    const c = await connect(server);
    for (const text of [
      '{"constructor":{"prototype":{"polluted":true}}}',
      '{"deep":[{"prototype":1}]}',
      '{"__proto__":{"polluted":true}}',
    ]) {
      const result = await c.client.callTool('any', JSON.parse(text) as Record<string, unknown>);
      expect(result).toMatchObject({ isError: true });
      expect(JSON.stringify(result.content)).toMatch(
        /is not accepted \(it could reach object prototypes\)/,
      );
    }
    expect(received).toBeUndefined();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('deadlines and cancellation', () => {
  it('cuts off a handler that never settles, aborts its signal, and serves other calls', async () => {
    let aborted: unknown;
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('hang', { timeoutMs: 50 }, (_args, ctx) => {
      ctx.signal.addEventListener('abort', () => (aborted = ctx.signal.reason));
      return new Promise<never>(() => {});
    });
    server.registerTool('quick', {}, () => 'fast');
    const c = await connect(server);
    const [hung, quick] = await Promise.all([
      c.client.callTool('hang'),
      c.client.callTool('quick'),
    ]);
    expect(quick).toMatchObject({ content: [{ text: 'fast' }] });
    expect(hung).toMatchObject({
      isError: true,
      content: [{ text: 'Tool "hang" did not finish within 50 ms' }],
    });
    expect(aborted).toMatchObject({ code: 'timeout' });
  });

  it('a cancelled call aborts the handler and gets no response', async () => {
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    let reason: unknown;
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('slow', {}, (_args, ctx) => {
      started();
      return new Promise<string>((resolve) => {
        ctx.signal.addEventListener('abort', () => {
          reason = ctx.signal.reason;
          resolve('too late');
        });
      });
    });
    const c = await connect(server);
    const controller = new AbortController();
    const call = c.client.callTool('slow', {}, { signal: controller.signal });
    await running;
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
    await sleep(20);
    expect(reason).toMatchObject({ code: 'aborted' });
    const callId = (
      c.clientSent.find((m) => (m as { method?: string }).method === 'tools/call') as { id: number }
    ).id;
    expect(c.serverSent.some((m) => (m as { id?: number }).id === callId)).toBe(false);
    expect(c.problems()).toEqual([]);
  });

  it('a client timeout sends notifications/cancelled and the server stops the handler', async () => {
    let aborted = false;
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool(
      'slow',
      {},
      (_a, ctx) =>
        new Promise<never>(() => ctx.signal.addEventListener('abort', () => (aborted = true))),
    );
    const c = await connect(server);
    await expect(c.client.callTool('slow', {}, { timeoutMs: 30 })).rejects.toMatchObject({
      code: 'timeout',
    });
    await sleep(20);
    expect(aborted).toBe(true);
    expect(c.clientSent).toContainEqual(
      expect.objectContaining({ method: 'notifications/cancelled' }),
    );
  });
});

describe('progress and logging', () => {
  for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
    it(`${version}: reports increasing progress only while the call runs`, async () => {
      let late!: () => void;
      const server = new McpServer({ name: 's', version: '1' });
      server.registerTool('work', {}, async (_a, ctx) => {
        ctx.progress(1, { total: 3, message: 'one' });
        ctx.progress(1); // not increasing: dropped
        ctx.progress(2.5, { total: 3, message: 'two and a half' });
        ctx.progress(3, { total: 3 });
        late = () => ctx.progress(4);
        return 'done';
      });
      const c = await connect(server, { version });
      const seen: Array<{ progress: number; message?: string }> = [];
      await c.client.callTool('work', {}, { onprogress: (p) => seen.push(p) });
      late();
      await sleep(10);
      expect(seen.map((p) => p.progress)).toEqual([1, 2.5, 3]);
      // `message` exists from 2025-03-26 on.
      expect(seen[0]?.message).toBe(version === '2024-11-05' ? undefined : 'one');
      expect(c.problems()).toEqual([]);
    });
  }

  it('sends no progress when the client did not ask', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('work', {}, (_a, ctx) => {
      ctx.progress(1);
      return 'done';
    });
    const c = await connect(server);
    await c.client.callTool('work');
    expect(
      c.serverSent.some((m) => (m as { method?: string }).method === 'notifications/progress'),
    ).toBe(false);
  });

  it('logs through notifications/message, filtered by the client level', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('chatty', {}, (_a, ctx) => {
      ctx.log.debug('fine detail');
      ctx.log.warning({ disk: '91%' }, 'storage');
      ctx.log.error('failed once');
      return 'ok';
    });
    const logs: unknown[] = [];
    const c = await connect(server, { client: { onLog: (m) => logs.push(m) } });
    await c.client.setLoggingLevel('warning');
    await c.client.callTool('chatty');
    await sleep(5);
    expect(logs).toEqual([
      { level: 'warning', logger: 'storage', data: { disk: '91%' } },
      { level: 'error', data: 'failed once' },
    ]);
    expect(c.problems()).toEqual([]);
  });
});

describe('rate limits', () => {
  it('limits calls per principal and tool, with a clear error, and refills', async () => {
    const server = new McpServer(
      { name: 's', version: '1' },
      { rateLimit: { limit: 2, windowMs: 200 } },
    );
    server.registerTool('a', {}, () => 'a');
    server.registerTool('free', { rateLimit: false }, () => 'free');
    const alice = await connect(server, { identity: { id: 'alice' } });
    const bob = await connect(server, { identity: { id: 'bob' } });
    expect((await alice.client.callTool('a')).isError).toBeUndefined();
    expect((await alice.client.callTool('a')).isError).toBeUndefined();
    await expect(alice.client.callTool('a')).rejects.toMatchObject({
      code: ErrorCode.RateLimited,
      message: expect.stringMatching(/Rate limit exceeded for tool "a"; retry in \d+ s/),
      data: { limit: 'tool', retryAfterMs: expect.any(Number) },
    });
    expect((await bob.client.callTool('a')).isError).toBeUndefined(); // another principal
    for (let i = 0; i < 5; i++)
      expect((await alice.client.callTool('free')).isError).toBeUndefined();
    await sleep(120);
    expect((await alice.client.callTool('a')).isError).toBeUndefined();
  });
});

describe('requests to the client during a call', () => {
  it('cancels its request to the client when the call is cancelled (cancellation, server to client)', async () => {
    let samplingSignal: AbortSignal | undefined;
    let asked!: () => void;
    const asking = new Promise<void>((r) => (asked = r));
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('assist', {}, async (_a, ctx) => {
      await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: 'think' } }],
        maxTokens: 10,
      });
      return 'never';
    });
    const c = await connect(server, {
      client: {
        handlers: {
          sampling: (_params, context) => {
            samplingSignal = context.signal;
            asked();
            return new Promise(() => {});
          },
        },
      },
    });
    const controller = new AbortController();
    const call = c.client.callTool('assist', {}, { signal: controller.signal });
    await asking;
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
    await sleep(30);
    expect(samplingSignal?.aborted).toBe(true);
    expect(c.serverSent).toContainEqual(
      expect.objectContaining({ method: 'notifications/cancelled' }),
    );
    expect(c.problems()).toEqual([]);
  });

  it('samples, elicits (with schema defaults) and lists roots on behalf of the call', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('assist', {}, async (_a, ctx) => {
      const sample = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
        maxTokens: 10,
      });
      const answer = await ctx.elicit({
        message: 'Your name?',
        requestedSchema: {
          type: 'object',
          properties: { name: { type: 'string' }, color: { type: 'string', default: 'blue' } },
        },
      });
      const roots = await ctx.listRoots();
      return JSON.stringify({ model: sample.model, answer, roots: roots.roots.length });
    });
    const c = await connect(server, {
      client: {
        handlers: {
          sampling: () => ({
            role: 'assistant',
            content: { type: 'text', text: 'yo' },
            model: 'm1',
          }),
          elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
          roots: () => [{ uri: 'file:///work', name: 'work' }],
        },
      },
    });
    const result = await c.client.callTool('assist');
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual({
      model: 'm1',
      answer: { action: 'accept', content: { name: 'Ada', color: 'blue' } },
      roots: 1,
    });
    expect(c.problems()).toEqual([]);
  });

  it('refuses what the client cannot do with a clear error result', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('assist', {}, async (_a, ctx) => {
      await ctx.elicit({ message: 'x', requestedSchema: { type: 'object', properties: {} } });
      return 'unreachable';
    });
    const c = await connect(server, { version: '2025-03-26' });
    expect(await c.client.callTool('assist')).toEqual(
      toolError('The client does not support elicitation'),
    );
  });
});

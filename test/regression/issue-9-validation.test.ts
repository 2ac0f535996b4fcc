/**
 * Issue 9, validation gaps:
 * - `1e309` parses to Infinity and passed a JSON Schema `number`, so handlers received
 *   non-finite numbers, and `add {a: 1e309}` sent `{"sum": null}`, breaking the tool's own output
 *   schema. Non-finite numbers are refused as invalid arguments, and output is checked as it will
 *   be serialised.
 * - Own `__proto__` keys reached handlers (`Object.assign<Record<string, unknown>, object>({}, args)['isAdmin'] === true` after
 *   `{"__proto__": {"isAdmin": true}}`): arguments carrying `__proto__`, `constructor` or
 *   `prototype` keys are refused as invalid.
 * - No result-size limit on the server: a 50 MB result was sent whole. A configurable maximum
 *   turns an oversized result into an `isError` result.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { McpServer } from '../../src/server.js';
import { StdioServerTransport } from '../../src/stdio.js';
import { connect } from '../support/harness.js';

/** A server reached over stdio streams, fed raw JSON text as a hostile client would send it. */
async function rawSession(server: McpServer, version = '2025-11-25') {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const replies = new Map<number, Record<string, unknown>>();
  const waiters = new Map<number, (reply: Record<string, unknown>) => void>();
  let buffered = '';
  stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const message = JSON.parse(buffered.slice(0, nl)) as Record<string, unknown>;
      buffered = buffered.slice(nl + 1);
      if (typeof message['id'] !== 'number') continue;
      replies.set(message['id'], message);
      waiters.get(message['id'])?.(message);
    }
  });
  await server.connect(new StdioServerTransport({ stdin, stdout }));
  let nextId = 1;
  const send = (text: string): Promise<Record<string, unknown>> => {
    const id = nextId++;
    stdin.write(text.replace('"$ID"', String(id)) + '\n');
    return new Promise((resolve) => {
      const done = replies.get(id);
      if (done) resolve(done);
      else waiters.set(id, resolve);
    });
  };
  await send(
    `{"jsonrpc":"2.0","id":"$ID","method":"initialize","params":{"protocolVersion":"${version}","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
  );
  stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  const call = (tool: string, argumentsText: string) =>
    send(
      `{"jsonrpc":"2.0","id":"$ID","method":"tools/call","params":{"name":"${tool}","arguments":${argumentsText}}}`,
    );
  return { call };
}

function adder(seen: unknown[] = []): McpServer {
  const server = new McpServer({ name: 'math', version: '1' }, { onerror: () => {} });
  server.registerTool(
    'add',
    {
      inputSchema: z.object({ a: z.number(), b: z.number().optional() }),
      outputSchema: z.object({ sum: z.number() }),
    },
    (args) => {
      seen.push(args);
      return { structuredContent: { sum: args.a + (args.b ?? 0) } };
    },
  );
  server.registerTool('anything', { inputSchema: { type: 'object' } }, (args) => {
    seen.push(args);
    return `admin: ${String(Object.assign<Record<string, unknown>, object>({}, args)['isAdmin'])}`;
  });
  return server;
}

describe('non-finite numbers', () => {
  it.each(['1e309', '-1e309', '{"nested":[1, 2e400]}'])(
    'refuses %s in arguments as invalid (2025-11-25: an isError result)',
    async (value) => {
      const seen: unknown[] = [];
      const { call } = await rawSession(adder(seen));
      const reply = await call(
        value.startsWith('{') ? 'anything' : 'add',
        value.startsWith('{') ? value : `{"a": ${value}}`,
      );
      expect(reply['result']).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: expect.stringMatching(/not a finite number/) }],
      });
      expect(seen).toEqual([]);
    },
  );

  it('answers -32602 on earlier revisions, naming where', async () => {
    const { call } = await rawSession(adder(), '2025-06-18');
    const reply = await call('add', '{"a": 1e309}');
    expect(reply['error']).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/\/a: the number is out of range/),
    });
  });

  it('checks output as it is serialised: NaN breaks a number schema instead of becoming null', async () => {
    const server = new McpServer({ name: 's', version: '1' }, { onerror: () => {} });
    server.registerTool('nan', { outputSchema: z.object({ n: z.number() }) }, () => ({
      structuredContent: { n: Number.NaN },
    }));
    server.registerTool(
      'when',
      { outputSchema: { type: 'object', properties: { at: { type: 'string' } } } as const },
      () => ({ structuredContent: { at: new Date(0) as unknown as string } }),
    );
    server.registerTool('big', {}, () => ({
      content: [],
      structuredContent: { n: 10n as unknown as number },
    }));
    const c = await connect(server);
    expect(await c.client.callTool('nan')).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/does not match its output schema: \/n/) }],
    });
    expect(await c.client.callTool('when')).toMatchObject({
      structuredContent: { at: '1970-01-01T00:00:00.000Z' },
    });
    expect(await c.client.callTool('big')).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/cannot be serialised as JSON/) }],
    });
    expect(c.problems()).toEqual([]);
  });
});

describe('keys that reach prototypes', () => {
  it.each([
    '{"__proto__": {"isAdmin": true}}',
    '{"constructor": {"prototype": {"isAdmin": true}}}',
    '{"list": [{"prototype": 1}]}',
  ])('refuses %s before the handler runs', async (args) => {
    const seen: unknown[] = [];
    const { call } = await rawSession(adder(seen));
    const reply = await call('anything', args);
    expect(reply['result']).toMatchObject({
      isError: true,
      content: [
        { text: expect.stringMatching(/is not accepted \(it could reach object prototypes\)/) },
      ],
    });
    expect(seen).toEqual([]);
  });

  it('still passes ordinary keys', async () => {
    const { call } = await rawSession(adder());
    const reply = await call('anything', '{"isAdmin": false, "protocol": "x"}');
    expect(reply['result']).toMatchObject({ content: [{ text: 'admin: false' }] });
  });
});

describe('result size', () => {
  it('turns a result over the limit into an isError result, server-wide and per tool', async () => {
    const errors: string[] = [];
    const server = new McpServer(
      { name: 's', version: '1' },
      { maxResultBytes: 64 * 1024, onerror: (e) => errors.push(String(e)) },
    );
    server.registerTool('huge', {}, () => 'x'.repeat(100 * 1024));
    server.registerTool('fits', {}, () => 'x'.repeat(60 * 1024));
    // 33 K characters, 2 bytes each in JSON (\"): over the limit once serialised. (Control
    // characters, 6 bytes each, are stripped by output sanitising since issue 11 unless it is off.)
    server.registerTool('escaped', {}, () => '"'.repeat(33 * 1024));
    server.registerTool('controls', { sanitize: false }, () => '\u0001'.repeat(12 * 1024));
    server.registerTool('small', { maxResultBytes: 1024 }, () => 'y'.repeat(2000));
    const c = await connect(server);
    for (const name of ['huge', 'escaped', 'controls', 'small']) {
      const result = await c.client.callTool(name);
      expect(result, name).toMatchObject({
        isError: true,
        content: [{ text: expect.stringMatching(/returned \d+ bytes, over the \d+-byte limit/) }],
      });
    }
    expect((await c.client.callTool('fits')).isError).toBeUndefined();
    expect(errors.some((e) => e.includes('over the 65536-byte limit'))).toBe(true);
  });

  it('fails a task whose result is over the limit, with a statusMessage saying so', async () => {
    const server = new McpServer(
      { name: 's', version: '1' },
      { maxResultBytes: 16 * 1024, onerror: () => {}, tasks: { pollIntervalMs: 20 } },
    );
    server.registerTool('bulky', { execution: { taskSupport: 'required' } }, async () =>
      'b'.repeat(64 * 1024),
    );
    const c = await connect(server);
    const statuses: Array<{ status: string; statusMessage?: string }> = [];
    const result = await c.client.callTool('bulky', {}, { ontaskstatus: (t) => statuses.push(t) });
    expect(result).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/over the 16384-byte limit/) }],
    });
    expect(statuses.at(-1)).toMatchObject({
      status: 'failed',
      statusMessage: expect.stringMatching(/returned \d+ bytes, over the 16384-byte limit/),
    });
  });

  it('defaults to 2 MiB, well under the 4 MiB a client accepts', async () => {
    const server = new McpServer({ name: 's', version: '1' }, { onerror: () => {} });
    server.registerTool('fifty', {}, () => 'z'.repeat(3 * 1024 * 1024));
    const c = await connect(server);
    expect(await c.client.callTool('fifty')).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/over the 2097152-byte limit/) }],
    });
  });

  it('refuses an unusable limit at configuration', () => {
    expect(() => new McpServer({ name: 's', version: '1' }, { maxResultBytes: 0 })).toThrow(
      /maxResultBytes must be a positive whole number/,
    );
    const server = new McpServer({ name: 's', version: '1' });
    expect(() => server.registerTool('t', { maxResultBytes: 1.5 }, () => 'x')).toThrow(
      /maxResultBytes must be a positive whole number/,
    );
  });
});

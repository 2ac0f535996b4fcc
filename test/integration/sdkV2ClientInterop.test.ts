/**
 * Interoperability with the official SDK v2 client (`@modelcontextprotocol/client` 2.x) against a
 * toolwire server (test/fixtures/sdkV2/toolwireServer.ts), over Streamable HTTP and stdio, in both
 * eras: the 2025 era with the SDK's default `versionNegotiation: { mode: 'legacy' }` (the
 * `initialize` handshake), the 2026 era with `mode: 'auto'` (a `server/discover` probe; on stdio on
 * a sibling process). Each call's result is checked as the SDK returns it, and every message the
 * toolwire server sent on the connection is checked against the official schema of the revision.
 */
import {
  Client,
  StreamableHTTPClientTransport,
  type CallToolResult,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import {
  startFixture,
  tapTransport,
  TOOLWIRE_FOR_V2,
  WireLog,
  wireProblems,
  type Exchange,
  type Message,
} from '../support/sdkV2Wire.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

type Era = '2025' | '2026';
const REVISION = { '2025': '2025-11-25', '2026': '2026-07-28' } as const;
const SERVER_INFO = { name: 'toolwire-v2-interop', version: '1.0.0' };

/** A v2 client for `era`, answering elicitations with an account and noting what was asked. */
function v2Client(era: Era): { client: Client; asked: string[] } {
  const asked: string[] = [];
  const client = new Client(
    { name: 'sdk-v2-client', version: '2.4.0' },
    {
      capabilities: { elicitation: {} },
      versionNegotiation: { mode: era === '2026' ? 'auto' : 'legacy' },
    },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { account: 'acct-9' } };
  });
  cleanup.push(() => client.close());
  return { client, asked };
}

/** A result without its `_meta`, which must be the server's identity on 2026 results and absent before. */
function plain(era: Era, result: CallToolResult): Omit<CallToolResult, '_meta'> {
  const { _meta, ...rest } = result;
  expect(_meta).toEqual(
    era === '2026' ? { 'io.modelcontextprotocol/serverInfo': SERVER_INFO } : undefined,
  );
  return rest;
}

const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

/** The calls every connection makes, with the results toolwire must give in `era`. */
async function exercise(client: Client, era: Era, asked: string[]): Promise<void> {
  expect(client.getProtocolEra()).toBe(era === '2026' ? 'modern' : 'legacy');
  expect(client.getNegotiatedProtocolVersion()).toBe(REVISION[era]);
  expect(client.getServerVersion()).toMatchObject(SERVER_INFO);
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual([
    'echo',
    'add',
    'tags',
    'fail',
    'transfer',
    'query',
  ]);
  const tags = tools.find((tool) => tool.name === 'tags');
  // 2025 peers get an array output schema wrapped in an object (their schema requires one).
  expect(tags?.outputSchema).toMatchObject(
    era === '2026'
      ? { type: 'array', items: { type: 'string' } }
      : { type: 'object', properties: { result: { type: 'array' } }, required: ['result'] },
  );
  // A second listing: 2026 cache hints (a minute, public) let the SDK answer it from its cache.
  await client.listTools();

  const call = async (name: string, args: Record<string, unknown>) =>
    plain(era, await client.callTool({ name, arguments: args }));
  expect(await call('echo', { message: 'hi' })).toEqual(text('hi'));
  expect(await call('add', { a: 2, b: 3 })).toEqual({
    ...text('{"sum":5}'),
    structuredContent: { sum: 5 },
  });
  expect(await call('tags', { n: 2 })).toEqual({
    ...text('["t0","t1"]'),
    structuredContent: era === '2026' ? ['t0', 't1'] : { result: ['t0', 't1'] },
  });
  expect(await call('fail', {})).toEqual({ ...text('it failed'), isError: true });
  expect(await call('add', { a: 'x', b: 1 })).toMatchObject({
    isError: true,
    content: [
      { type: 'text', text: expect.stringContaining('Invalid arguments for tool "add": /a') },
    ],
  });
  await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({
    code: -32602,
    message: expect.stringContaining('Unknown tool: nope'),
  });
  expect(await call('transfer', { amount: 5 })).toEqual(text('Sent 5 to acct-9.'));
  expect(asked).toEqual(['Send 5 to which account?']);
  expect(await call('query', { region: 'Zürich', sql: 'select 1' })).toEqual(
    text('select 1 in Zürich'),
  );
}

const callsOf = (exchanges: Exchange[], tool: string) =>
  exchanges.filter((e) => e.body?.['method'] === 'tools/call' && paramsOf(e.body)['name'] === tool);
const paramsOf = (message: Message | undefined) =>
  (message?.['params'] ?? {}) as Record<string, unknown>;

describe('the SDK v2 client against the toolwire HTTP server', () => {
  it.each(['2025', '2026'] as const)(
    'in the %s era: lists, calls, structured output, errors, elicitation',
    async (era) => {
      const server = await startFixture(TOOLWIRE_FOR_V2, ['http']);
      cleanup.push(() => server.stop());
      const log = new WireLog();
      const { client, asked } = v2Client(era);
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), { fetch: log.fetch }),
      );
      await exercise(client, era, asked);
      await client.close();
      const exchanges = await log.exchanges();
      const posts = exchanges.filter((e) => e.method === 'POST');
      const requests = posts.map((e) => e.body);
      const listings = posts.filter((e) => e.body?.['method'] === 'tools/list');
      expect(listings).toHaveLength(era === '2026' ? 1 : 2);

      if (era === '2025') {
        expect(posts[0]?.body?.['method']).toBe('initialize');
        // Every POST after initialize carries the one session it opened.
        const sessions = new Set(posts.slice(1).map((e) => e.headers['mcp-session-id']));
        expect([...sessions]).toEqual([expect.stringMatching(/^[\x21-\x7e]+$/)]);
      } else {
        expect(posts[0]?.body?.['method']).toBe('server/discover');
        expect(posts[0]?.received[0]?.['result']).toMatchObject({
          supportedVersions: expect.arrayContaining(['2026-07-28', '2025-11-25']),
          ttlMs: 60_000,
          cacheScope: 'public',
        });
        expect(exchanges.some((e) => e.headers['mcp-session-id'] !== undefined)).toBe(false);
        expect(listings[0]?.received[0]?.['result']).toMatchObject({
          ttlMs: 60_000,
          cacheScope: 'public',
          resultType: 'complete',
        });
        // The x-mcp-header argument travels as a header, base64 for a value that is not ASCII.
        const [query] = callsOf(exchanges, 'query');
        expect(query?.headers).toMatchObject({
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'query',
          'mcp-param-region': `=?base64?${Buffer.from('Zürich').toString('base64')}?=`,
        });
        // The round of input: input_required, then the same call with the answer and the state.
        const [first, retry] = callsOf(exchanges, 'transfer');
        const asking = first?.received[0]?.['result'] as Record<string, unknown>;
        expect(asking).toMatchObject({ resultType: 'input_required' });
        const keys = Object.keys(asking['inputRequests'] as object);
        expect(keys).toHaveLength(1);
        expect(paramsOf(retry?.body)).toMatchObject({
          arguments: { amount: 5 },
          requestState: asking['requestState'],
          inputResponses: {
            [keys[0] as string]: { action: 'accept', content: { account: 'acct-9' } },
          },
        });
        expect(retry?.body?.['id']).not.toBe(first?.body?.['id']);
      }
      const sent = posts.flatMap((e) => e.received);
      expect(sent.length).toBeGreaterThanOrEqual(posts.length - 2);
      expect(wireProblems(REVISION[era], sent, requests)).toEqual([]);
      expect(server.stderr()).toBe('');
    },
    30_000,
  );
});

describe('the SDK v2 client against the toolwire stdio server', () => {
  it.each(['2025', '2026'] as const)(
    'in the %s era: lists, calls, structured output, errors, elicitation',
    async (era) => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [TOOLWIRE_FOR_V2, 'stdio'],
        stderr: 'pipe',
      });
      const wire = tapTransport(transport);
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const { client, asked } = v2Client(era);
      await client.connect(transport);
      await exercise(client, era, asked);
      await client.close();
      const first = wire.sent[0];
      // In 2026 the SDK probed a sibling process: this connection starts with a plain request.
      expect(first?.['method']).toBe(era === '2026' ? 'tools/list' : 'initialize');
      if (era === '2026') {
        expect(paramsOf(first)['_meta']).toMatchObject({
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
          'io.modelcontextprotocol/clientInfo': { name: 'sdk-v2-client', version: '2.4.0' },
        });
        const rounds = wire.received.filter(
          (m) =>
            (m['result'] as Record<string, unknown> | undefined)?.['resultType'] ===
            'input_required',
        );
        expect(rounds).toHaveLength(1);
      } else {
        // The 2025 elicitation is a request from the server.
        expect(wire.received.filter((m) => m['method'] === 'elicitation/create')).toHaveLength(1);
      }
      expect(wire.received.length).toBeGreaterThan(8);
      expect(wireProblems(REVISION[era], wire.received, wire.sent)).toEqual([]);
      expect(stderr).toBe('');
    },
    30_000,
  );
});

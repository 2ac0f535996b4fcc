/**
 * Interoperability of toolwire's client with servers built on the official SDK v2
 * (`@modelcontextprotocol/server` 2.x, test/fixtures/sdkV2/sdkV2Server.ts), over Streamable HTTP
 * and stdio, with `protocolEra: 'legacy'`, `'modern'` and `'auto'`: `auto` speaks 2026-07-28 to a
 * v2 server that serves it and falls back to the 2025 handshake against one that does not. A v2
 * tool asks for input by returning `inputRequired(...)`: an `input_required` round trip in 2026,
 * an `elicitation/create` request in a 2025 session. Every message toolwire sent is checked
 * against the official schema of the revision it spoke.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import { HttpClientTransport } from '../../src/http.js';
import type { CallToolResult } from '../../src/index.js';
import { StdioClientTransport } from '../../src/stdio.js';
import {
  SDK_V2_SERVER,
  startFixture,
  tapTransport,
  WireLog,
  wireProblems,
  type FixtureProcess,
  type Message,
} from '../support/sdkV2Wire.js';

type ProtocolEra = 'legacy' | 'modern' | 'auto';
type Revision = '2025-11-25' | '2026-07-28';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const SERVER_INFO = { name: 'sdk-v2-interop', version: '2.0.0' };
const text = (value: string) => ({ content: [{ type: 'text', text: value }] });
const paramsOf = (message: Message | undefined) =>
  (message?.['params'] ?? {}) as Record<string, unknown>;

/** A toolwire client whose elicitation handler answers "Ada" and notes what it was asked. */
function twClient(protocolEra: ProtocolEra): { client: McpClient; asked: string[] } {
  const asked: string[] = [];
  const client = new McpClient(
    { name: 'toolwire-v2-interop', version: '1.0.0' },
    {
      protocolEra,
      handlers: {
        elicitation: async ({ message }) => {
          asked.push(message);
          return { action: 'accept', content: { name: 'Ada' } };
        },
      },
    },
  );
  cleanup.push(() => client.close());
  return { client, asked };
}

/** A result without the 2026 envelope (the server's identity, `resultType`), checked first. */
function plain(revision: Revision, result: CallToolResult): Record<string, unknown> {
  const { _meta, resultType, ...rest } = result as CallToolResult & { resultType?: unknown };
  if (revision === '2026-07-28') {
    expect(_meta).toEqual({ 'io.modelcontextprotocol/serverInfo': SERVER_INFO });
    expect(resultType ?? 'complete').toBe('complete');
  } else {
    expect([_meta, resultType]).toEqual([undefined, undefined]);
  }
  return rest;
}

/**
 * The calls every connection makes. `elicits`: the v2 server can ask this client for input (its
 * stateless 2025 serving cannot: a fresh instance per request never hears the answer).
 */
async function exercise(
  client: McpClient,
  revision: Revision,
  asked: string[],
  elicits = true,
): Promise<void> {
  expect(client.protocolVersion).toBe(revision);
  expect(client.serverInfo).toMatchObject(SERVER_INFO);
  expect((await client.listTools()).map((tool) => tool.name)).toEqual([
    'echo',
    'add',
    'fail',
    'ask',
  ]);
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    plain(revision, await client.callTool(name, args));
  expect(await call('echo', { message: 'hi' })).toEqual(text('hi'));
  expect(await call('add', { a: 1, b: 2 })).toEqual({
    ...text('3'),
    structuredContent: { sum: 3 },
  });
  expect(await call('fail')).toEqual({ ...text('it failed'), isError: true });
  expect(await call('add', { a: 'x', b: 1 })).toMatchObject({
    isError: true,
    content: [{ type: 'text', text: expect.stringContaining('Invalid arguments for tool add') }],
  });
  // SDK v2 answers an unknown tool with -32602 (1.x gave an isError result).
  await expect(client.callTool('nope')).rejects.toMatchObject({
    code: -32602,
    message: expect.stringContaining('nope'),
  });
  const answer = await call('ask', { question: 'Your name?' });
  if (elicits) {
    expect(answer).toEqual(text('Hello, Ada'));
    expect(asked).toEqual(['Your name?']);
  } else {
    expect(answer).toMatchObject({ isError: true });
    expect(asked).toEqual([]);
  }
}

/** Checks what toolwire sent over HTTP, and the 2026 headers and round of input. */
async function checkHttpWire(
  log: WireLog,
  revision: Revision,
  probed: boolean,
  elicits = true,
): Promise<void> {
  const posts = (await log.exchanges()).filter((e) => e.method === 'POST');
  const first = posts[0]?.body?.['method'];
  expect(first).toBe(probed ? 'server/discover' : 'initialize');
  // A probe answered by a 2025-only server (HTTP 400) is followed by the handshake.
  const spoken = revision === '2025-11-25' && probed ? posts.slice(1) : posts;
  if (revision === '2025-11-25') expect(spoken[0]?.body?.['method']).toBe('initialize');
  const fromServer = posts.flatMap((e) => e.received);
  expect(
    wireProblems(
      revision,
      spoken.flatMap((e) => (e.body ? [e.body] : [])),
      fromServer,
    ),
  ).toEqual([]);
  if (probed) {
    expect(wireProblems('2026-07-28', [posts[0]?.body as Message], [])).toEqual([]);
  }
  if (revision === '2025-11-25') {
    // The answer to the server's elicitation/create, POSTed in its session.
    const asked = fromServer.filter((m) => m['method'] === 'elicitation/create');
    const answers = posts.filter((e) => e.body && 'result' in e.body);
    expect(asked.map((m) => m['id'])).toEqual(answers.map((e) => e.body?.['id']));
    expect(answers.map((e) => [e.status, e.body?.['result']])).toEqual(
      elicits ? [[202, { action: 'accept', content: { name: 'Ada' } }]] : [],
    );
    return;
  }
  for (const post of posts) {
    const body = post.body as Message;
    expect(post.headers['mcp-session-id']).toBeUndefined();
    expect(post.headers).toMatchObject({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': body['method'],
    });
    expect(paramsOf(body)['_meta']).toMatchObject({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
      'io.modelcontextprotocol/clientInfo': { name: 'toolwire-v2-interop', version: '1.0.0' },
    });
  }
  const asks = posts.filter(
    (e) => e.body?.['method'] === 'tools/call' && paramsOf(e.body)['name'] === 'ask',
  );
  expect(asks.map((e) => e.headers['mcp-name'])).toEqual(['ask', 'ask']);
  expect(asks[0]?.received[0]?.['result']).toMatchObject({
    resultType: 'input_required',
    inputRequests: { name: { method: 'elicitation/create' } },
  });
  // The SDK sent no requestState: the retry carries the answer alone, on a new id.
  const retry = paramsOf(asks[1]?.body);
  expect(retry).toMatchObject({
    name: 'ask',
    arguments: { question: 'Your name?' },
    inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } },
  });
  expect('requestState' in retry).toBe(false);
  expect(asks[1]?.body?.['id']).not.toBe(asks[0]?.body?.['id']);
}

describe('the toolwire client against SDK v2 HTTP servers', () => {
  const servers: Record<string, FixtureProcess> = {};
  beforeAll(async () => {
    for (const mode of ['sessions', 'both', 'modern', 'legacy']) {
      servers[mode] = await startFixture(SDK_V2_SERVER, ['http', mode]);
    }
  }, 30_000);
  afterAll(async () => {
    for (const server of Object.values(servers)) await server.stop();
  });

  async function connect(mode: string, era: ProtocolEra) {
    const log = new WireLog();
    const { client, asked } = twClient(era);
    await client.connect(new HttpClientTransport(servers[mode]?.url ?? '', { fetch: log.fetch }));
    return { client, asked, log };
  }

  it.each([
    ['legacy', '2025-11-25'],
    ['modern', '2026-07-28'],
    ['auto', '2026-07-28'],
  ] as const)(
    'both eras with 2025 sessions beside them, protocolEra %s: speaks %s',
    async (era, revision) => {
      const { client, asked, log } = await connect('sessions', era);
      await exercise(client, revision, asked);
      await client.close();
      await checkHttpWire(log, revision, era !== 'legacy');
      expect(servers['sessions']?.stderr()).toBe('');
    },
    20_000,
  );

  it('createMcpHandler as it comes: auto speaks 2026; legacy gets its stateless 2025 serving', async () => {
    const modern = await connect('both', 'auto');
    await exercise(modern.client, '2026-07-28', modern.asked);
    await modern.client.close();
    await checkHttpWire(modern.log, '2026-07-28', true);
    const legacy = await connect('both', 'legacy');
    await exercise(legacy.client, '2025-11-25', legacy.asked, false);
    await legacy.client.close();
    await checkHttpWire(legacy.log, '2025-11-25', false, false);
  }, 20_000);

  it('a 2026-only v2 endpoint: auto speaks 2026; a legacy client is refused', async () => {
    const { client, asked, log } = await connect('modern', 'auto');
    await exercise(client, '2026-07-28', asked);
    await client.close();
    await checkHttpWire(log, '2026-07-28', true);
    const legacy = twClient('legacy').client;
    await expect(
      legacy.connect(new HttpClientTransport(servers['modern']?.url ?? '')),
    ).rejects.toThrow();
  }, 20_000);

  it('a 2025-only v2 server (its sessionful transport alone): auto falls back to initialize', async () => {
    const { client, asked, log } = await connect('legacy', 'auto');
    await exercise(client, '2025-11-25', asked);
    await client.close();
    await checkHttpWire(log, '2025-11-25', true);
    const [probe] = (await log.exchanges()).filter((e) => e.method === 'POST');
    expect(probe?.status).toBe(400);
    expect(servers['legacy']?.stderr()).toBe('');
  }, 20_000);
});

describe('the toolwire client against SDK v2 stdio servers', () => {
  async function connect(mode: string, era: ProtocolEra) {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SDK_V2_SERVER, 'stdio', mode],
      stderr: 'pipe',
    });
    const wire = tapTransport(transport);
    const { client, asked } = twClient(era);
    await client.connect(transport);
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    return { client, asked, wire, stderr: () => stderr };
  }

  /** What toolwire sent, checked; a probe (auto) against the 2026 schema, the rest against `revision`. */
  function checkStdioWire(
    wire: ReturnType<typeof tapTransport>,
    revision: Revision,
    probed: boolean,
  ) {
    const [first] = wire.sent;
    // modern and auto open with server/discover, legacy with initialize.
    expect(first?.['method']).toBe(
      probed || revision === '2026-07-28' ? 'server/discover' : 'initialize',
    );
    const spoken = revision === '2025-11-25' && probed ? wire.sent.slice(1) : wire.sent;
    if (probed && revision === '2025-11-25') {
      expect(wireProblems('2026-07-28', [first as Message], [])).toEqual([]);
      expect(spoken[0]?.['method']).toBe('initialize');
    }
    expect(wireProblems(revision, spoken, wire.received)).toEqual([]);
    const rounds = wire.received.filter(
      (m) =>
        (m['result'] as Record<string, unknown> | undefined)?.['resultType'] === 'input_required',
    );
    const requests = wire.received.filter((m) => m['method'] === 'elicitation/create');
    expect([rounds.length, requests.length]).toEqual(revision === '2026-07-28' ? [1, 0] : [0, 1]);
  }

  it.each([
    ['legacy', '2025-11-25'],
    ['modern', '2026-07-28'],
    ['auto', '2026-07-28'],
  ] as const)(
    'serveStdio (both eras), protocolEra %s: speaks %s',
    async (era, revision) => {
      const { client, asked, wire, stderr } = await connect('both', era);
      await exercise(client, revision, asked);
      await client.close();
      checkStdioWire(wire, revision, era === 'auto');
      expect(stderr()).toBe('');
    },
    20_000,
  );

  it('a 2025-only v2 stdio server: auto falls back to initialize on the same process', async () => {
    const { client, asked, wire } = await connect('legacy', 'auto');
    await exercise(client, '2025-11-25', asked);
    await client.close();
    checkStdioWire(wire, '2025-11-25', true);
    expect(wire.received[0]).toMatchObject({ id: wire.sent[0]?.['id'], error: { code: -32601 } });
  }, 20_000);

  it('a 2026-only v2 stdio server: auto speaks 2026; a legacy client gets -32022', async () => {
    const { client, asked, wire } = await connect('modern', 'auto');
    await exercise(client, '2026-07-28', asked);
    await client.close();
    checkStdioWire(wire, '2026-07-28', true);
    await expect(connect('modern', 'legacy')).rejects.toMatchObject({
      code: -32022,
      data: { supported: ['2026-07-28'], requested: '2025-11-25' },
    });
  }, 20_000);
});

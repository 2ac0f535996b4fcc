import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../client.js';
import { createHttpHandler, StreamableHttpClientTransport } from '../../http.js';
import { LocalError } from '../../jsonrpc/errors.js';
import { McpServer } from '../../server/mcpServer.js';
import { forgetEras } from './eraMemory.js';

afterEach(() => forgetEras());

/** A -32022 answer as the streamable-http page maps it (HTTP 400). */
function refusal(id: unknown, supported: string[]): Response {
  return Response.json(
    {
      jsonrpc: '2.0',
      id,
      error: {
        code: -32022,
        message: 'Unsupported protocol version',
        data: { supported, requested: '2026-07-28' },
      },
    },
    { status: 400 },
  );
}

/**
 * A toolwire server behind a fetch that refuses the first `refuse` requests of `method` with
 * -32022 naming `supported`, and records every method it is sent.
 */
function endpoint(method: string, refuse: number, supported: string[]) {
  const server = new McpServer({ name: 's', version: '1' });
  server.registerTool('echo', {}, () => 'echoed');
  const handler = createHttpHandler(server, { onerror: () => {} });
  const methods: string[] = [];
  let refused = 0;
  const fetcher = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const body =
      request.method === 'POST'
        ? ((await request.clone().json()) as { method?: string; id?: unknown })
        : {};
    methods.push(body.method ?? request.method);
    if (body.method === method && refused < refuse) {
      refused++;
      return refusal(body.id, supported);
    }
    return handler.fetch(request);
  };
  const transport = () =>
    new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp', { fetch: fetcher });
  return { methods, transport };
}

describe('a 2026 request refused with -32022 (UnsupportedProtocolVersionError)', () => {
  it('is sent once more when the refusal names 2026-07-28 among the supported revisions', async () => {
    const { methods, transport } = endpoint('server/discover', 1, ['2026-07-28']);
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'modern' });
    await client.connect(transport());
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(methods.slice(0, 2)).toEqual(['server/discover', 'server/discover']);
    await client.close();
  });

  it('a call: once more, and a second refusal is an unsupported-version error naming what the server supports', async () => {
    const once = endpoint('tools/call', 1, ['2026-07-28']);
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'modern' });
    await client.connect(once.transport());
    await expect(client.callTool('echo')).resolves.toMatchObject({ content: [{ text: 'echoed' }] });
    expect(once.methods.filter((m) => m === 'tools/call')).toHaveLength(2);
    await client.close();

    const always = endpoint('tools/call', 5, ['2026-07-28']);
    const second = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'modern' });
    await second.connect(always.transport());
    const error = await second.callTool('echo').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({ code: 'unsupported-version' });
    expect((error as Error).message).toContain('supports 2026-07-28');
    // One retry, never a loop.
    expect(always.methods.filter((m) => m === 'tools/call')).toHaveLength(2);
    await second.close();
  });

  it('pinned to 2026: a refusal naming only 2025 revisions is not retried and says what the server supports', async () => {
    const { methods, transport } = endpoint('server/discover', 5, ['2025-11-25', '2025-06-18']);
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'modern' });
    const error = await client.connect(transport()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unsupported-version' });
    expect((error as Error).message).toContain('2025-11-25, 2025-06-18');
    expect(methods.filter((m) => m === 'server/discover')).toHaveLength(1);
  });

  it('auto: a refusal naming only 2025 revisions opens a 2025 session with initialize', async () => {
    const { methods, transport } = endpoint('server/discover', 5, ['2025-11-25']);
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'auto' });
    await client.connect(transport());
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(methods.slice(0, 2)).toEqual(['server/discover', 'initialize']);
    await expect(client.callTool('echo')).resolves.toMatchObject({ content: [{ text: 'echoed' }] });
    await client.close();
  });
});

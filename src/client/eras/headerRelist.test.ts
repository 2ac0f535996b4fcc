import { describe, expect, it } from 'vitest';
import { McpClient } from '../../client.js';
import { createHttpHandler, StreamableHttpClientTransport } from '../../http.js';
import { McpServer } from '../../server/mcpServer.js';

const schema = (header: string) => ({
  type: 'object' as const,
  properties: { region: { type: 'string' as const, 'x-mcp-header': header } },
  required: ['region'],
});

describe('a 2026 call whose Mcp-Param headers the server refuses (-32020)', () => {
  it('re-lists the tools and sends the call once more with the headers they now name', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    const tool = server.registerTool(
      'route',
      { inputSchema: schema('Region') },
      ({ region }) => `routed to ${String(region)}`,
    );
    const handler = createHttpHandler(server, { onerror: () => {} });
    const methods: string[] = [];
    const fetcher = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      methods.push(request.headers.get('mcp-method') ?? '?');
      return handler.fetch(request);
    };
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'modern' });
    await client.connect(
      new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp', {
        fetch: fetcher,
      }),
    );
    await client.listTools();
    // The tool now mirrors its argument under another header: the client's listing is stale.
    tool.update({ inputSchema: schema('Zone') });
    methods.length = 0;
    const result = await client.callTool('route', { region: 'eu' });
    expect(result.content).toEqual([{ type: 'text', text: 'routed to eu' }]);
    expect(methods).toEqual(['tools/call', 'tools/list', 'tools/call']);
    await client.close();
  });
});

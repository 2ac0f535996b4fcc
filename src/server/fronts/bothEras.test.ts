/**
 * One server, one set of registrations, both eras, driven by toolwire's own client: in memory
 * (the era chosen by the connection's opening) and over Streamable HTTP (per request). The same
 * tool asks for input with `ctx.elicit`: a push request on 2025 sessions, an `input_required`
 * round trip on 2026 requests; the handler's code is the same.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { McpClient, type ClientOptions } from '../../client.js';
import { createHttpHandler, StreamableHttpClientTransport } from '../../http.js';
import { createLinkedPair } from '../../transports/memory.js';
import { McpServer } from '../mcpServer.js';

function server(): McpServer {
  const s = new McpServer({ name: 'both', version: '1' });
  s.registerTool(
    'greet',
    { inputSchema: z.object({ greeting: z.string() }) },
    async ({ greeting }, { elicit }) => {
      const answer = await elicit({
        message: 'Your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      });
      return answer.action === 'accept' ? `${greeting}, ${String(answer.content?.['name'])}` : 'no';
    },
  );
  s.registerTool(
    'route',
    {
      inputSchema: {
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
        required: ['region'],
      },
    },
    ({ region }) => `routed to ${String(region)}`,
  );
  return s;
}

const asked: string[] = [];
const options = (protocolEra: ClientOptions['protocolEra']): ClientOptions => ({
  protocolEra,
  handlers: {
    elicitation: (params) => {
      asked.push(params.message);
      return { action: 'accept', content: { name: 'Ada' } };
    },
  },
});

describe('one server, both eras, toolwire’s client', () => {
  it('in memory: a 2025 session and a 2026 connection call the same tool', async () => {
    const s = server();
    for (const era of ['legacy', 'modern'] as const) {
      asked.length = 0;
      const [a, b] = createLinkedPair();
      await s.connect(b);
      const client = new McpClient({ name: 'c', version: '1' }, options(era));
      await client.connect(a);
      expect(client.protocolVersion, era).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
      expect((await client.listTools()).map((t) => t.name)).toEqual(['greet', 'route']);
      const result = await client.callTool('greet', { greeting: 'Hello' });
      expect(result.content, era).toEqual([{ type: 'text', text: 'Hello, Ada' }]);
      expect(asked, era).toEqual(['Your name?']);
      await client.close();
    }
  });

  it('over Streamable HTTP: a 2025 session and 2026 requests on one endpoint', async () => {
    const handler = createHttpHandler(server(), { onerror: () => {} });
    const fetcher = (input: RequestInfo | URL, init?: RequestInit) =>
      handler.fetch(new Request(input, init));
    for (const era of ['legacy', 'modern', 'auto'] as const) {
      asked.length = 0;
      const transport = new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp', {
        fetch: fetcher,
      });
      const client = new McpClient({ name: 'c', version: '1' }, options(era));
      await client.connect(transport);
      // auto probes with server/discover, which this server answers: 2026-07-28.
      expect(client.protocolVersion, era).toBe(era === 'legacy' ? '2025-11-25' : '2026-07-28');
      const result = await client.callTool('greet', { greeting: 'Hi' });
      expect(result.content, era).toEqual([{ type: 'text', text: 'Hi, Ada' }]);
      // The 2026 client mirrors the argument as Mcp-Param-Region (base64 for non-ASCII), which
      // the server checks against the body.
      const routed = await client.callTool('route', { region: 'Zürich 1' });
      expect(routed.content, era).toEqual([{ type: 'text', text: 'routed to Zürich 1' }]);
      expect(asked, era).toEqual(['Your name?']);
      await client.close();
    }
    // The 2026 requests opened no session; the 2025 one was closed by its client.
    expect(handler.sessionCount).toBe(0);
  });
});

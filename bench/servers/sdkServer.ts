// The official SDK (@modelcontextprotocol/sdk 1.x) doing the same work as toolwireServer.ts.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';
import { BULK_TOOLS, bulkTool } from './bulkTools.js';

const server = new McpServer({ name: 'sdk-bench', version: '1' });
server.registerTool('echo', { inputSchema: { message: z.string() } }, ({ message }) => ({
  content: [{ type: 'text', text: message }],
}));
for (let i = 0; i < BULK_TOOLS; i++) {
  const { name, ...rest } = bulkTool(i);
  server.registerTool(
    name,
    { ...rest, inputSchema: { value: z.string().describe('Any text').optional() } },
    ({ value }) => ({
      content: [{ type: 'text', text: value ?? '' }],
    }),
  );
}
await server.connect(new StdioServerTransport());

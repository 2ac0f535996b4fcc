// The toolwire benchmark server: `echo` (validated input) plus the generated tools.
import { McpServer } from 'toolwire';
import { StdioServerTransport } from 'toolwire/stdio';
import { BULK_INPUT, BULK_TOOLS, bulkTool } from './bulkTools.js';

const server = new McpServer({ name: 'toolwire-bench', version: '1' });
server.registerTool(
  'echo',
  {
    inputSchema: {
      type: 'object',
      properties: { message: { type: 'string' } },
      required: ['message'],
    } as const,
  },
  ({ message }) => message,
);
for (let i = 0; i < BULK_TOOLS; i++) {
  const { name, ...rest } = bulkTool(i);
  server.registerTool(name, { ...rest, inputSchema: BULK_INPUT }, ({ value }) => value ?? '');
}
await server.connect(new StdioServerTransport());

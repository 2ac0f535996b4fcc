// The toolwire Streamable HTTP benchmark server (stateful): `echo` plus the generated tools.
// Prints its URL on stdout.
import { McpServer } from 'toolwire';
import { createHttpHandler } from 'toolwire/http';
import { serveHttp } from 'toolwire/node';
import { BULK_INPUT, BULK_TOOLS, bulkTool } from './bulkTools.js';

const server = new McpServer({ name: 'toolwire-http-bench', version: '1' });
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
// Every benchmark session comes from 127.0.0.1 (more than the default 100 per client address).
const listener = await serveHttp(createHttpHandler(server, { maxSessionsPerPrincipal: 1000 }));
process.stdout.write(`${listener.url}/mcp\n`);

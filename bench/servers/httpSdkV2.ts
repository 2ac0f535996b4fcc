// The official SDK v2 server (@modelcontextprotocol/server 2.x) on Node's http server, serving
// revision 2026-07-28 the way its documentation serves it: `createMcpHandler` with a factory that
// builds a fresh McpServer for each request (its 2026 handler is per request and stateless), and
// the same tools and work as httpToolwire.ts (`echo` plus the 999 generated tools, Zod schemas,
// `async` handlers). The Zod schemas are built once, outside the factory, which spares the SDK
// that work on every request. Prints its URL on stdout.
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { BULK_TOOLS, bulkTool } from './bulkTools.js';
import { listenLocal, serveFetch } from './fetchOnNode.js';

const echoInput = z.object({ message: z.string() });
const bulkInput = z.object({ value: z.string().describe('Any text').optional() });
const bulk = Array.from({ length: BULK_TOOLS }, (_, i) => bulkTool(i));

function build(): McpServer {
  const server = new McpServer({ name: 'sdk-v2-http-bench', version: '1' });
  server.registerTool('echo', { inputSchema: echoInput }, async ({ message }) => ({
    content: [{ type: 'text', text: message }],
  }));
  for (const { name, ...rest } of bulk) {
    server.registerTool(name, { ...rest, inputSchema: bulkInput }, async ({ value }) => ({
      content: [{ type: 'text', text: value ?? '' }],
    }));
  }
  return server;
}

// Its default options (2025-era requests would get its stateless legacy serving; the benchmark
// sends 2026-07-28 requests only).
const handler = createMcpHandler(() => build());
process.stdout.write(`${await listenLocal(serveFetch(handler.fetch))}\n`);

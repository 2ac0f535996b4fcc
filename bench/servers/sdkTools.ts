/**
 * @module The official SDK (@modelcontextprotocol/sdk 1.x) server with the same tools as
 * zodTools.ts, written as its own examples write them: Zod shapes and `async` handlers.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { BULK_TOOLS, bulkTool } from './bulkTools.js';

/** A new SDK server offering `echo` and the generated tools. */
export function sdkServer(name: string): McpServer {
  const server = new McpServer({ name, version: '1' });
  server.registerTool('echo', { inputSchema: { message: z.string() } }, async ({ message }) => ({
    content: [{ type: 'text', text: message }],
  }));
  for (let i = 0; i < BULK_TOOLS; i++) {
    const { name: toolName, ...rest } = bulkTool(i);
    server.registerTool(
      toolName,
      { ...rest, inputSchema: { value: z.string().describe('Any text').optional() } },
      async ({ value }) => ({ content: [{ type: 'text', text: value ?? '' }] }),
    );
  }
  return server;
}

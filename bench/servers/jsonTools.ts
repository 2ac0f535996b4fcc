/**
 * @module The tools of the second-row toolwire benchmark servers: plain JSON Schemas and
 * synchronous handlers returning a string (toolwire's fast path, no promise per call). `echo`
 * plus the generated tools.
 */
import type { McpServer } from 'toolwire';
import { BULK_INPUT, BULK_TOOLS, bulkTool } from './bulkTools.js';

/** Registers `echo` and the generated tools on `server`. */
export function registerJsonTools(server: McpServer): void {
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
}

/**
 * @module The tools of the default toolwire benchmark servers, written the way users write them
 * (and the way the official SDK's examples do): Zod input schemas and `async` handlers returning
 * a content array. `echo` plus the generated tools.
 */
import type { McpServer } from 'toolwire';
import * as z from 'zod';
import { BULK_TOOLS, bulkTool } from './bulkTools.js';

/** Registers `echo` and the generated tools on `server`. */
export function registerZodTools(server: McpServer): void {
  server.registerTool(
    'echo',
    { inputSchema: z.object({ message: z.string() }) },
    async ({ message }) => ({ content: [{ type: 'text', text: message }] }),
  );
  for (let i = 0; i < BULK_TOOLS; i++) {
    const { name, ...rest } = bulkTool(i);
    server.registerTool(
      name,
      { ...rest, inputSchema: z.object({ value: z.string().describe('Any text').optional() }) },
      async ({ value }) => ({ content: [{ type: 'text', text: value ?? '' }] }),
    );
  }
}

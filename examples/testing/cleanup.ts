/**
 * A tool that uses its handler context destructured: the call's abort signal, progress, logging
 * and an elicitation (docs/server.md, "The handler context"). `cleanup.test.ts` beside it tests
 * the tool with `toolwire/testing`, at every revision, with the wire checked against each
 * revision's schema.
 */
import { McpServer, ToolError } from 'toolwire';
import * as z from 'zod';

/** Where the tool deletes from: file names and their age in days. */
export type Files = Map<string, number>;

/** A server with one tool, `delete_old_files`, working on `files`. */
export function createCleanupServer(files: Files): McpServer {
  const server = new McpServer({ name: 'cleanup', version: '1.0.0' });
  server.registerTool(
    'delete_old_files',
    {
      description: 'Deletes the files older than a number of days, once the user confirms',
      inputSchema: z.object({
        days: z.number().int().positive(),
        confirmed: z.boolean().optional().describe('Skip asking the user'),
      }),
      outputSchema: z.object({ deleted: z.array(z.string()) }),
    },
    async ({ days, confirmed }, { signal, progress, log, elicit }) => {
      const old = [...files].filter(([, age]) => age > days).map(([name]) => name);
      log.info({ old: old.length, days }, 'cleanup');
      if (old.length > 0 && confirmed !== true) {
        // A client that cannot be asked (before revision 2025-06-18, or without the elicitation
        // capability) makes elicit() throw: the call then fails with that reason.
        const answer = await elicit({
          message: `Delete ${old.length} files older than ${days} days?`,
          requestedSchema: {
            type: 'object',
            properties: { delete: { type: 'boolean', title: 'Delete them' } },
            required: ['delete'],
          },
        });
        if (answer.action !== 'accept' || answer.content?.['delete'] !== true)
          throw new ToolError('Nothing was deleted: the user did not confirm');
      }
      const deleted: string[] = [];
      for (const name of old) {
        signal.throwIfAborted(); // the client cancelled, or the call's deadline passed
        files.delete(name);
        deleted.push(name);
        progress(deleted.length, { total: old.length, message: `deleted ${name}` });
      }
      return { structuredContent: { deleted } };
    },
  );
  return server;
}

/**
 * Testing a tool with vitest and `toolwire/testing` (docs/testing.md): a client
 * connected to the server in memory at each revision, every message the server sends checked
 * against that revision's official schema.
 */
import { SUPPORTED_PROTOCOL_VERSIONS, type ElicitResult, type Progress } from 'toolwire';
import { connectInMemory } from 'toolwire/testing';
import { describe, expect, it } from 'vitest';
import { createCleanupServer } from './cleanup.js';

const files = () =>
  new Map([
    ['notes.txt', 2],
    ['old.log', 40],
    ['older.log', 90],
  ]);

describe.each(SUPPORTED_PROTOCOL_VERSIONS)('delete_old_files at %s', (revision) => {
  it('deletes what is older, reporting progress', async () => {
    const store = files();
    const progress: Progress[] = [];
    const { client, close } = await connectInMemory(createCleanupServer(store), {
      revision,
      validateWire: true,
    });
    try {
      const result = await client.callTool(
        'delete_old_files',
        { days: 30, confirmed: true },
        { onprogress: (p) => progress.push(p) },
      );
      expect(result.isError).toBeUndefined();
      expect([...store.keys()]).toEqual(['notes.txt']);
      expect(progress.map((p) => p.progress)).toEqual([1, 2]);
      // Revisions are dates: progress messages came with 2025-03-26, structured content with
      // 2025-06-18. An older client receives neither (the text block holds the JSON as well).
      expect(progress[1]?.message).toBe(revision >= '2025-03-26' ? 'deleted older.log' : undefined);
      expect(result.structuredContent).toEqual(
        revision >= '2025-06-18' ? { deleted: ['old.log', 'older.log'] } : undefined,
      );
      expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual({
        deleted: ['old.log', 'older.log'],
      });
    } finally {
      await close();
    }
  });

  it('asks the user first, where the revision can', async () => {
    const store = files();
    const asked: string[] = [];
    const { client, close } = await connectInMemory(createCleanupServer(store), {
      revision,
      validateWire: true,
      client: {
        handlers: {
          elicitation: (params): ElicitResult => {
            asked.push(params.message);
            return { action: 'decline' };
          },
        },
      },
    });
    try {
      const result = await client.callTool('delete_old_files', { days: 30 });
      expect(result.isError).toBe(true);
      expect(store.size).toBe(3); // nothing deleted
      if (revision < '2025-06-18') {
        // Elicitation came with 2025-06-18: the client cannot be asked.
        expect(asked).toEqual([]);
        expect(result.content).toEqual([
          { type: 'text', text: 'The client does not support elicitation' },
        ]);
      } else {
        expect(asked).toEqual(['Delete 2 files older than 30 days?']);
        expect(result.content).toEqual([
          { type: 'text', text: 'Nothing was deleted: the user did not confirm' },
        ]);
      }
    } finally {
      await close();
    }
  });
});

/**
 * @module The server the message corpus is replayed against (test/corpus/corpus.test.ts): a few
 * tools that between them produce every kind of answer the fixtures record. Pages of two tools,
 * so that `tools/list` is paginated. Deterministic: no clock or random value reaches a result
 * (task ids and times do, and the fixtures that show them declare them as varying).
 */
import * as z from 'zod';
import {
  audio,
  embeddedBlob,
  embeddedText,
  image,
  McpServer,
  resourceLink,
  text,
} from '../../src/server.js';

const PNG = 'iVBORw0KGgo=';

/** A new corpus server (one per fixture: each replay starts from a fresh session). */
export function corpusServer(): McpServer {
  const server = new McpServer(
    { name: 'corpus', version: '1.0.0' },
    { pageSize: 2, onerror: () => {} },
  );
  server.registerTool(
    'echo',
    {
      description: 'Says the text back',
      inputSchema: z.object({ text: z.string().min(1) }),
    },
    ({ text: said }) => said,
  );
  server.registerTool('content', { description: 'One block of every content type' }, () => ({
    content: [
      text('hello', { annotations: { audience: ['user'], priority: 0.5 } }),
      image(PNG, 'image/png'),
      audio(new Uint8Array([1, 2, 3]), 'audio/wav'),
      resourceLink({ uri: 'file:///notes.md', name: 'notes.md', mimeType: 'text/markdown' }),
      embeddedText('file:///a.txt', 'body', { mimeType: 'text/plain' }),
      embeddedBlob('file:///b.bin', new Uint8Array([255]), {
        mimeType: 'application/octet-stream',
      }),
    ],
  }));
  server.registerTool(
    'weather',
    {
      title: 'Weather',
      description: 'The weather in a city, as structured output',
      inputSchema: z.object({ city: z.string() }),
      outputSchema: z.object({ city: z.string(), celsius: z.number() }),
      annotations: { readOnlyHint: true },
    },
    ({ city }) => ({ structuredContent: { city, celsius: 21 } }),
  );
  server.registerTool('fail', { description: 'Always fails, as a tool error' }, () => ({
    content: [text('the disk is full')],
    isError: true,
  }));
  server.registerTool(
    'count',
    {
      description: 'Counts to three, reporting progress; may run as a task',
      execution: { taskSupport: 'optional' },
    },
    async (_args, { progress }) => {
      for (let i = 1; i <= 3; i++) progress(i, { total: 3 });
      return 'counted to 3';
    },
  );
  server.registerTool(
    'greet',
    { description: 'Asks the user for a name, then greets them' },
    async (_args, { elicit }) => {
      const answer = await elicit(
        {
          message: 'Your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        },
        { inputKey: 'name' },
      );
      const name = answer.action === 'accept' ? String(answer.content?.['name']) : 'nobody';
      return `Hello, ${name}`;
    },
  );
  return server;
}

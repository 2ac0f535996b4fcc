import { describe, expect, it } from 'vitest';
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
import { connect, ERA_REVISIONS, ERAS } from '../support/harness.js';
import { validateMessage } from '../support/specSchemas.js';

const PNG = 'iVBORw0KGgo=';
const ann = { audience: ['user' as const], priority: 0.5, lastModified: '2025-05-03T14:30:00Z' };

function everything(): McpServer {
  const server = new McpServer({
    name: 'rev',
    version: '1',
    title: 'Revisions',
    description: 'All fields',
    icons: [{ src: 'https://example.com/s.png' }],
    websiteUrl: 'https://example.com',
  });
  server.registerTool(
    'full',
    {
      title: 'Full tool',
      description: 'Every field',
      inputSchema: z.object({ q: z.string().optional() }),
      outputSchema: z.object({ n: z.number() }),
      annotations: { readOnlyHint: true, openWorldHint: false },
      icons: [
        {
          src: 'https://example.com/t.png',
          mimeType: 'image/png',
          sizes: ['48x48'],
          theme: 'dark',
        },
      ],
      execution: { taskSupport: 'forbidden' },
      _meta: { 'com.example/owner': 'team-a' },
    },
    () => ({ structuredContent: { n: 7 } }),
  );
  server.registerTool('content', { description: 'Every content type' }, () => ({
    content: [
      text('hello', { annotations: ann, _meta: { 'com.example/k': 1 } }),
      image(PNG, 'image/png', { annotations: ann }),
      audio(new Uint8Array([1, 2, 3]), 'audio/wav'),
      resourceLink({
        uri: 'file:///a.rs',
        name: 'a.rs',
        title: 'A',
        description: 'Main',
        mimeType: 'text/x-rust',
        size: 12,
        icons: [{ src: 'data:image/png;base64,AA==' }],
        annotations: ann,
      }),
      embeddedText('file:///b.txt', 'body', { mimeType: 'text/plain', annotations: ann }),
      embeddedBlob('file:///c.bin', new Uint8Array([255]), {
        mimeType: 'application/octet-stream',
      }),
    ],
    _meta: { 'com.example/trace': 'abc' },
  }));
  return server;
}

// Every era the harness knows, each revision of it.
describe.each(ERAS)('what each revision of the %s era receives', (era) => {
  for (const version of ERA_REVISIONS[era]) {
    it(`${version}: every message validates against the strict official schema`, async () => {
      const c = await connect(everything(), { era, version });
      const [full] = await c.client.listTools();
      const structured = await c.client.callTool(
        'full',
        {},
        { validateOutput: version >= '2025-06-18' },
      );
      const content = await c.client.callTool('content');
      expect(c.problems()).toEqual([]);

      const at = (v: string) => version >= v;
      expect(full?.title !== undefined).toBe(at('2025-06-18'));
      expect(full?.outputSchema !== undefined).toBe(at('2025-06-18'));
      expect(full?.icons !== undefined).toBe(at('2025-11-25'));
      // 2026-07-28 has no 2025 tasks: execution is an extension's business there.
      expect(full?.execution !== undefined).toBe(era === '2025' && at('2025-11-25'));
      expect(full?._meta !== undefined).toBe(at('2025-06-18'));
      expect(full?.annotations !== undefined).toBe(at('2025-03-26'));
      // 2025-03-26 has no Tool.title; the display name travels as annotations.title.
      if (version === '2025-03-26') expect(full?.annotations?.title).toBe('Full tool');

      expect(structured.structuredContent !== undefined).toBe(at('2025-06-18'));
      expect(structured.content).toEqual([{ type: 'text', text: '{"n":7}' }]);

      const types = content.content.map((b) => b.type);
      expect(types).toEqual([
        'text',
        'image',
        at('2025-03-26') ? 'audio' : 'resource',
        at('2025-06-18') ? 'resource_link' : 'text',
        'resource',
        'resource',
      ]);
      if (!at('2025-03-26'))
        expect(content.content[2]).toMatchObject({
          resource: { mimeType: 'audio/wav', blob: 'AQID' },
        });
      if (!at('2025-06-18'))
        expect(content.content[3]).toMatchObject({
          text: expect.stringContaining('<file:///a.rs>'),
        });
      const first = content.content[0] as {
        annotations?: { lastModified?: string };
        _meta?: unknown;
      };
      expect(first.annotations?.lastModified !== undefined).toBe(at('2025-06-18'));
      expect(first._meta !== undefined).toBe(at('2025-06-18'));
      expect(content._meta).toMatchObject({ 'com.example/trace': 'abc' });
    });
  }
});

describe('the harness’s 2026-07-28 message check', () => {
  it('fails what the revision forbids: a request without _meta, a result without resultType', () => {
    const methodOf = () => 'tools/call';
    expect(
      validateMessage(
        '2026-07-28',
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
        methodOf,
      ),
    ).not.toEqual([]);
    expect(
      validateMessage('2026-07-28', { jsonrpc: '2.0', id: 1, result: { content: [] } }, methodOf),
    ).not.toEqual([]);
    expect(
      validateMessage(
        '2026-07-28',
        { jsonrpc: '2.0', id: 1, result: { resultType: 'input_required', requestState: 's' } },
        methodOf,
      ),
    ).toEqual([]);
    expect(
      validateMessage(
        '2026-07-28',
        { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
        () => undefined,
      ),
    ).not.toEqual([]);
  });
});

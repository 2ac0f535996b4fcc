/**
 * Issue 8, client side:
 * - A tool whose output schema uses an unsupported dialect was called, and only afterwards was
 *   the result found unverifiable: the side effect happened and the result was thrown away. The
 *   decision is now made before the call.
 * - Content blocks of unknown `type` were passed through, and a missing `content` silently became
 *   `[]`: a result that breaks the negotiated revision's CallToolResult is now refused as
 *   `invalid-output`.
 */
import { describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import type { Tool } from '../../src/protocol/types.js';
import { fakeServer } from '../support/fakeServer.js';

const tool = (extra: Partial<Tool> = {}): Tool => ({
  name: 'act',
  inputSchema: { type: 'object' },
  ...extra,
});

async function clientOf(tools: Tool[], version = '2025-11-25') {
  const fake = fakeServer(tools, version);
  const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'legacy' });
  await client.connect(fake.clientTransport);
  return { fake, client };
}

describe('an output schema the client cannot validate', () => {
  it.each([
    ['an unknown dialect', { type: 'object', $schema: 'https://json-schema.org/draft-04/schema' }],
    ['an invalid schema', { type: 'object', properties: { a: { type: 'nonsense' } } }],
  ])('with %s refuses the call before it is sent', async (_what, outputSchema) => {
    const { fake, client } = await clientOf([tool({ outputSchema: outputSchema })]);
    fake.callResult = { content: [], structuredContent: { a: 1 } };
    const error = await client.callTool('act').catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'unsupported-schema',
      message: expect.stringMatching(/Tool "act" has an output schema this client cannot validate/),
    });
    expect(fake.calls).toEqual([]);
    // The same refusal again, without compiling twice or calling.
    await expect(client.callTool('act')).rejects.toMatchObject({ code: 'unsupported-schema' });
    expect(fake.calls).toEqual([]);
  });

  it('is called, its result unvalidated, when the caller opts out with validateOutput: false', async () => {
    const schema = { type: 'object', $schema: 'https://json-schema.org/draft-04/schema' };
    const { fake, client } = await clientOf([tool({ outputSchema: schema })]);
    fake.callResult = { content: [], structuredContent: { a: 1 } };
    await expect(client.callTool('act', {}, { validateOutput: false })).resolves.toMatchObject({
      structuredContent: { a: 1 },
    });
    expect(fake.calls).toHaveLength(1);
  });

  it('reads a schema without $schema as draft-07 before 2025-11-25, as 2020-12 from it', async () => {
    // A draft-07 tuple (`items` as an array): valid draft-07, invalid 2020-12.
    const outputSchema = {
      type: 'object',
      properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } },
    };
    const old = await clientOf([tool({ outputSchema: outputSchema })], '2025-06-18');
    old.fake.callResult = { content: [], structuredContent: { pair: ['a', 1] } };
    await expect(old.client.callTool('act')).resolves.toMatchObject({
      structuredContent: { pair: ['a', 1] },
    });
    old.fake.callResult = { content: [], structuredContent: { pair: [1, 'a'] } };
    await expect(old.client.callTool('act')).rejects.toMatchObject({ code: 'invalid-output' });
    const current = await clientOf([tool({ outputSchema: outputSchema })]);
    await expect(current.client.callTool('act')).rejects.toMatchObject({
      code: 'unsupported-schema',
    });
    expect(current.fake.calls).toEqual([]);
  });
});

describe('results that break the revision’s CallToolResult are refused', () => {
  const invalid: Array<[string, unknown, RegExp, string?]> = [
    ['no content', { structuredContent: { a: 1 } }, /no "content" array/],
    ['content not an array', { content: 'hi' }, /no "content" array/],
    [
      'an unknown block type',
      { content: [{ type: 'video', url: 'x' }] },
      /content\[0\] has an unknown content type "video"/,
    ],
    [
      'a block without type',
      { content: [{ text: 'x' }] },
      /content\[0\] has an unknown content type/,
    ],
    ['a text block without text', { content: [{ type: 'text' }] }, /needs a string "text"/],
    [
      'an image with bad base64',
      { content: [{ type: 'image', data: '%%%', mimeType: 'image/png' }] },
      /base64/,
    ],
    [
      'a resource without contents',
      { content: [{ type: 'resource', resource: { uri: 'x:y' } }] },
      /either string "text" or base64 "blob"/,
    ],
    [
      'audio on 2024-11-05',
      { content: [{ type: 'audio', data: 'AA==', mimeType: 'audio/wav' }] },
      /audio block, which this protocol revision does not define/,
      '2024-11-05',
    ],
    [
      'a resource_link on 2025-03-26',
      { content: [{ type: 'resource_link', uri: 'x:y', name: 'y' }] },
      /resource_link, which this protocol revision does not define/,
      '2025-03-26',
    ],
    ['isError not a boolean', { content: [], isError: 'yes' }, /"isError" must be a boolean/],
    [
      'structuredContent not an object',
      { content: [], structuredContent: [1] },
      /"structuredContent" must be an object/,
    ],
  ];
  it.each(invalid)('%s', async (_what, result, message, version) => {
    const { fake, client } = await clientOf([tool()], version);
    fake.callResult = result;
    await expect(client.callTool('act')).rejects.toMatchObject({
      code: 'invalid-output',
      message: expect.stringMatching(message),
    });
  });

  it('accepts what each revision defines, including open extra fields', async () => {
    const { fake, client } = await clientOf([tool()], '2025-06-18');
    fake.callResult = {
      content: [
        { type: 'text', text: 'a', extra: true },
        { type: 'audio', data: 'AA==', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'file:///x', name: 'x' },
        {
          type: 'resource',
          resource: { uri: 'x:y', text: 't' },
          annotations: { lastModified: 'yesterday' },
        },
      ],
      isError: false,
    };
    await expect(client.callTool('act')).resolves.toMatchObject({ content: { length: 4 } });
  });
});

/**
 * Issue 8: schemas converted from Zod carried `"$schema": ".../2020-12/schema"` to every revision.
 * Peers before 2025-11-25 (which predate 2020-12 as MCP's default dialect and mostly read schemas
 * as draft-07) now receive no `$schema`, and a Standard Schema in its draft-07 form.
 */
import { type } from 'arktype';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { SUPPORTED_PROTOCOL_VERSIONS, type ProtocolVersion } from '../../src/protocol/versions.js';
import { McpServer } from '../../src/server.js';
import { connect } from '../support/harness.js';

const OLDER: ProtocolVersion[] = ['2024-11-05', '2025-03-26', '2025-06-18'];

function server(): McpServer {
  const s = new McpServer({ name: 'dialects', version: '1' });
  s.registerTool(
    'pair',
    {
      inputSchema: z.object({ pair: z.tuple([z.string(), z.number()]) }),
      outputSchema: z.object({ joined: z.string() }),
    },
    ({ pair }) => ({ structuredContent: { joined: `${pair[0]}${pair[1]}` } }),
  );
  s.registerTool(
    'ark',
    { inputSchema: type({ pair: ['string', 'number'] }) },
    ({ pair }) => `${pair[0]}${pair[1]}`,
  );
  s.registerTool(
    'plain',
    {
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { n: { type: 'number' } },
      },
    },
    () => 'ok',
  );
  return s;
}

describe('$schema per revision', () => {
  it.each(OLDER)('%s: no $schema anywhere, tuples in draft-07 form', async (version) => {
    const c = await connect(server(), { version });
    const tools = await c.client.listTools();
    expect(JSON.stringify(tools)).not.toContain('$schema');
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ['pair', 'ark']) {
      expect(byName.get(name)?.inputSchema['properties']).toMatchObject({
        pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] },
      });
      expect(JSON.stringify(byName.get(name))).not.toContain('prefixItems');
    }
    expect(byName.get('plain')?.inputSchema).toEqual({
      type: 'object',
      properties: { n: { type: 'number' } },
    });
    // The tool still works end to end, its output checked by the client as draft-07.
    const result = await c.client.callTool('pair', { pair: ['a', 1] });
    expect(result.content).toEqual([{ type: 'text', text: '{"joined":"a1"}' }]);
    expect(c.problems()).toEqual([]);
  });

  it('2025-11-25: the schemas as converted, $schema included', async () => {
    const c = await connect(server(), { version: '2025-11-25' });
    const tools = await c.client.listTools();
    const pair = tools.find((t) => t.name === 'pair');
    expect(pair?.inputSchema['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(pair?.outputSchema?.['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(JSON.stringify(pair?.inputSchema)).toContain('prefixItems');
    expect(tools.find((t) => t.name === 'plain')?.inputSchema['$schema']).toBe(
      'https://json-schema.org/draft/2020-12/schema',
    );
    expect(await c.client.callTool('pair', { pair: ['b', 2] })).toMatchObject({
      structuredContent: { joined: 'b2' },
    });
  });

  it('validates arguments the same way whatever the revision (the server keeps its schema)', async () => {
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      const c = await connect(server(), { version });
      const bad = c.client.callTool('pair', { pair: [1, 'a'] });
      if (version === '2025-11-25') await expect(bad).resolves.toMatchObject({ isError: true });
      else await expect(bad).rejects.toMatchObject({ code: -32602 });
    }
  });
});

/**
 * Output schemas of any root and `structuredContent` of any JSON value (2026-07-28, SEP-2106),
 * and what 2025-era peers receive instead: the schema wrapped as `{ result: … }` (its `$defs`
 * hoisted so references still resolve), the value likewise, and the JSON text always.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { connect } from '../../../test/support/harness.js';
import { ScriptedTransport } from '../../../test/support/scriptedTransport.js';
import { validateDefinition } from '../../../test/support/specSchemas.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import { McpClient } from '../../client.js';
import { createLinkedPair } from '../../transports/memory.js';
import { McpServer } from '../mcpServer.js';

function server(): McpServer {
  // structuredText off: an object result gets no text, a non-object one still does.
  const s = new McpServer({ name: 'values', version: '1' }, { structuredText: false });
  s.registerTool('primes', { outputSchema: z.array(z.number()) }, () => ({
    structuredContent: [2, 3, 5],
  }));
  s.registerTool(
    'tagged',
    {
      outputSchema: {
        $defs: { tag: { type: 'string', minLength: 1 } },
        type: 'array',
        items: { $ref: '#/$defs/tag' },
      },
    },
    () => ({ structuredContent: ['a', 'b'] }),
  );
  s.registerTool('word', {}, () => ({ structuredContent: 'hello' }));
  s.registerTool('point', { outputSchema: z.object({ x: z.number() }) }, () => ({
    structuredContent: { x: 1 },
  }));
  return s;
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

async function modern(s: McpServer) {
  const transport = new ScriptedTransport();
  await s.connect(transport);
  let id = 0;
  return async (method: string, params: JsonObject = {}) => {
    transport.inject({ jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta: META } });
    return (await transport.next()) as unknown as JsonObject;
  };
}

describe('structured values of any JSON type', () => {
  it('2026-07-28: schemas and values as they are, with their JSON text', async () => {
    const send = await modern(server());
    const list = await send('tools/list');
    expect(validateDefinition('2026-07-28', 'ListToolsResultResponse', list)).toEqual([]);
    const tools = (list['result'] as { tools: Array<{ name: string; outputSchema?: JsonObject }> })
      .tools;
    expect(tools.find((t) => t.name === 'primes')?.outputSchema).toMatchObject({ type: 'array' });
    const expected: Array<[string, unknown, string | undefined]> = [
      ['primes', [2, 3, 5], '[2,3,5]'],
      ['tagged', ['a', 'b'], '["a","b"]'],
      ['word', 'hello', '"hello"'],
      ['point', { x: 1 }, undefined],
    ];
    for (const [name, value, text] of expected) {
      const reply = await send('tools/call', { name });
      expect(validateDefinition('2026-07-28', 'CallToolResultResponse', reply), name).toEqual([]);
      const result = reply['result'] as JsonObject;
      expect(result['structuredContent'], name).toEqual(value);
      expect(result['content'], name).toEqual(text === undefined ? [] : [{ type: 'text', text }]);
    }
  });

  it('2025-11-25: wrapped as { result }, schema and value, valid for the revision and the client', async () => {
    const c = await connect(server(), { version: '2025-11-25' });
    const tools = await c.client.listTools();
    const tagged = tools.find((t) => t.name === 'tagged');
    expect(tagged?.outputSchema).toEqual({
      type: 'object',
      properties: { result: { type: 'array', items: { $ref: '#/$defs/tag' } } },
      required: ['result'],
      $defs: { tag: { type: 'string', minLength: 1 } },
    });
    expect(tools.find((t) => t.name === 'point')?.outputSchema).toMatchObject({
      type: 'object',
      properties: { x: { type: 'number' } },
    });
    // The client validates each value against the (wrapped) schema it listed.
    expect((await c.client.callTool('primes')).structuredContent).toEqual({ result: [2, 3, 5] });
    expect((await c.client.callTool('tagged')).structuredContent).toEqual({ result: ['a', 'b'] });
    expect((await c.client.callTool('word')).structuredContent).toEqual({ result: 'hello' });
    expect((await c.client.callTool('point')).structuredContent).toEqual({ x: 1 });
    expect(c.problems()).toEqual([]);
  });

  it('toolwire’s 2026 client validates and returns them as they are', async () => {
    const [a, b] = createLinkedPair();
    await server().connect(b);
    const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'modern' });
    await client.connect(a);
    expect((await client.callTool('primes')).structuredContent).toEqual([2, 3, 5]);
    expect((await client.callTool('tagged')).structuredContent).toEqual(['a', 'b']);
    expect((await client.callTool('word')).structuredContent).toBe('hello');
    await client.close();
  });

  it('2025-03-26: no structured content at all, the JSON text instead', async () => {
    const c = await connect(server(), { version: '2025-03-26' });
    const result = await c.client.callTool('primes');
    expect(result.structuredContent).toBeUndefined();
    expect(result.content).toEqual([{ type: 'text', text: '[2,3,5]' }]);
    expect(c.problems()).toEqual([]);
  });

  it('holds a handler to a non-object output schema', async () => {
    const s = new McpServer({ name: 'v', version: '1' }, { onerror: () => {} });
    s.registerTool('bad', { outputSchema: z.array(z.number()) }, () => ({
      structuredContent: ['x'] as unknown as number[],
    }));
    const send = await modern(s);
    const reply = await send('tools/call', { name: 'bad' });
    expect(reply['result']).toMatchObject({ isError: true });
  });
});

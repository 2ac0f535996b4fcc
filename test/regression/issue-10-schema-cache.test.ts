/**
 * Issue 10: converting each Zod tool's schema to JSON Schema was about a fifth of start-up with a
 * thousand tools. A Standard Schema is converted once however many tools, or updates, use it.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { McpServer } from '../../src/server.js';
import { connect } from '../support/harness.js';

/** A Zod schema whose JSON Schema conversions are counted. */
function counted<T extends z.ZodType>(schema: T): { schema: T; conversions: () => number } {
  let count = 0;
  const standard = schema['~standard'] as unknown as {
    jsonSchema: { input: (o: unknown) => unknown; output: (o: unknown) => unknown };
  };
  const { input, output } = standard.jsonSchema;
  standard.jsonSchema = {
    input: (o) => (count++, input(o)),
    output: (o) => (count++, output(o)),
  };
  return { schema, conversions: () => count };
}

describe('Standard Schema conversion', () => {
  it('converts a schema shared by many tools once, and not again on update()', async () => {
    const shared = counted(z.object({ city: z.string() }));
    const server = new McpServer({ name: 's', version: '1' });
    const tools = Array.from({ length: 50 }, (_, i) =>
      server.registerTool(`t${i}`, { inputSchema: shared.schema }, ({ city }) => city),
    );
    expect(shared.conversions()).toBe(1);
    tools[0]?.update({ description: 'now described' });
    expect(shared.conversions()).toBe(1);
    const c = await connect(server);
    const listed = await c.client.listTools();
    expect(listed).toHaveLength(50);
    expect(listed[3]?.inputSchema).toMatchObject({ properties: { city: { type: 'string' } } });
    expect(await c.client.callTool('t7', { city: 'Oslo' })).toMatchObject({
      content: [{ text: 'Oslo' }],
    });
  });
});

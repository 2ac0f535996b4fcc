/** @module The tool set every benchmark server offers: `echo` plus N generated tools. */

/** Generated tools per server: with `echo`, tools/list returns exactly 1000 tools. */
export const BULK_TOOLS = 999;

/** The JSON Schema of a generated tool's input. */
export const BULK_INPUT = {
  type: 'object',
  properties: { value: { type: 'string', description: 'Any text' } },
} as const;

/** The name, title and description of generated tool `i`. */
export function bulkTool(i: number): { name: string; title: string; description: string } {
  return { name: `bulk_${i}`, title: `Bulk tool ${i}`, description: `Generated tool number ${i}` };
}

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/**
 * The tools as the default toolwire server lists them to a 2025-11-25 client (Zod's JSON Schema,
 * with its `$schema`), for the ceilings: the same bytes, built by a bare process.
 */
export function listedTools(): object[] {
  return [
    {
      name: 'echo',
      inputSchema: {
        $schema: DIALECT,
        type: 'object',
        properties: { message: { type: 'string' } },
        required: ['message'],
      },
    },
    ...Array.from({ length: BULK_TOOLS }, (_, i) => {
      const { name, title, description } = bulkTool(i);
      return { name, inputSchema: { $schema: DIALECT, ...BULK_INPUT }, title, description };
    }),
  ];
}

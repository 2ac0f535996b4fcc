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

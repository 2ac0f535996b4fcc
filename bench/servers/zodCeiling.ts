// The stdio ceiling plus what Zod costs any server written with it, whatever its MCP library:
// zod imported; the 1000 tools' Zod schemas and async handlers built and kept; each schema
// converted to JSON Schema once at start (a server must, to list it); echo's arguments validated
// by Zod on every call. toolwire's own share of a figure is its distance from this server; the
// distance from this server to the bare ceiling is Zod's.
import * as z from 'zod';
import { BULK_TOOLS } from './bulkTools.js';
import { resultOf, type CeilingRequest } from './ceilingAnswers.js';
import { serveLines } from './stdioLines.js';

const echo = z.object({ message: z.string() });
const kept = Array.from({ length: BULK_TOOLS }, () => {
  const schema = z.object({ value: z.string().describe('Any text').optional() });
  return {
    schema,
    listed: z.toJSONSchema(schema, { io: 'input' }),
    handler: async ({ value }: { value?: string }) => ({
      content: [{ type: 'text', text: value ?? '' }],
    }),
  };
});
const listedEcho = z.toJSONSchema(echo, { io: 'input' });

function answer(m: CeilingRequest): unknown {
  if (m.method === 'tools/call' && !echo.safeParse(m.params?.arguments).success)
    throw new Error('the benchmark client sent invalid arguments');
  return resultOf(m);
}

// Referenced once more so nothing above is optimised away before the process ends.
process.on('exit', () => void [kept.length, listedEcho]);
serveLines(answer);

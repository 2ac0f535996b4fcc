// The ceiling: a bare JSON-lines process that parses each request and writes a canned or echoed
// response: what any stdio MCP server must at least do (read, JSON.parse, JSON.stringify, write).
import { createInterface } from 'node:readline';
import { BULK_INPUT, BULK_TOOLS, bulkTool } from './bulkTools.js';

const tools = [
  {
    name: 'echo',
    inputSchema: {
      type: 'object',
      properties: { message: { type: 'string' } },
      required: ['message'],
    },
  },
  ...Array.from({ length: BULK_TOOLS }, (_, i) => ({ ...bulkTool(i), inputSchema: BULK_INPUT })),
];
const initialize = {
  protocolVersion: '2025-11-25',
  capabilities: { tools: { listChanged: true } },
  serverInfo: { name: 'ceiling', version: '1' },
};

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const m = JSON.parse(line) as {
    id?: number;
    method: string;
    params?: { arguments?: { message?: string } };
  };
  if (m.id === undefined) return;
  let result: unknown;
  if (m.method === 'tools/call')
    result = { content: [{ type: 'text', text: m.params?.arguments?.message ?? '' }] };
  else if (m.method === 'tools/list') result = { tools };
  else if (m.method === 'initialize') result = initialize;
  else result = {};
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }) + '\n');
});

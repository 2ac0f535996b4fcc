import { fileURLToPath } from 'node:url';
import { McpClient } from 'toolwire';
import { StdioClientTransport } from 'toolwire/stdio';

const client = new McpClient({ name: 'quickstart', version: '1.0.0' });
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', fileURLToPath(new URL('server.ts', import.meta.url))],
  }),
);

console.log((await client.listTools()).map((tool) => tool.name));
const result = await client.callTool('forecast', { city: 'Lisbon' });
console.log(result.structuredContent);
await client.close();

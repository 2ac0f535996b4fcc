// The default toolwire stdio benchmark server: Zod schemas, async handlers (zodTools.ts).
import { McpServer } from 'toolwire';
import { StdioServerTransport } from 'toolwire/stdio';
import { registerZodTools } from './zodTools.js';

const server = new McpServer({ name: 'toolwire-bench', version: '1' });
registerZodTools(server);
await server.connect(new StdioServerTransport());

// The second-row toolwire stdio benchmark server: JSON Schemas, synchronous handlers (jsonTools.ts).
import { McpServer } from 'toolwire';
import { StdioServerTransport } from 'toolwire/stdio';
import { registerJsonTools } from './jsonTools.js';

const server = new McpServer({ name: 'toolwire-bench', version: '1' });
registerJsonTools(server);
await server.connect(new StdioServerTransport());

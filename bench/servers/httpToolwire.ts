// The default toolwire Streamable HTTP benchmark server (stateful): Zod schemas, async handlers
// (zodTools.ts). Prints its URL on stdout.
import { McpServer } from 'toolwire';
import { createHttpHandler } from 'toolwire/http';
import { serveHttp } from 'toolwire/node';
import { registerZodTools } from './zodTools.js';

const server = new McpServer({ name: 'toolwire-http-bench', version: '1' });
registerZodTools(server);
// Every benchmark session comes from 127.0.0.1 (more than the default 100 per client address).
const listener = await serveHttp(createHttpHandler(server, { maxSessionsPerPrincipal: 1000 }));
process.stdout.write(`${listener.url}\n`);

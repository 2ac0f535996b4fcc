// The second-row toolwire Streamable HTTP benchmark server (stateful): JSON Schemas, synchronous
// handlers (jsonTools.ts). Prints its URL on stdout.
import { McpServer } from 'toolwire';
import { createHttpHandler } from 'toolwire/http';
import { serveHttp } from 'toolwire/node';
import { registerJsonTools } from './jsonTools.js';

const server = new McpServer({ name: 'toolwire-http-bench', version: '1' });
registerJsonTools(server);
// Every benchmark session comes from 127.0.0.1 (more than the default 100 per client address).
const listener = await serveHttp(createHttpHandler(server, { maxSessionsPerPrincipal: 1000 }));
process.stdout.write(`${listener.url}\n`);

// The default toolwire stdio benchmark server (zodTools.ts) with one server-wide middleware of
// the kind users add (it times each request), so the chain's cost shows beside the default row,
// which has none and takes the inline path.
import { McpServer } from 'toolwire';
import { StdioServerTransport } from 'toolwire/stdio';
import { registerZodTools } from './zodTools.js';

const server = new McpServer({ name: 'toolwire-bench', version: '1' });
registerZodTools(server);
let slowest = 0;
server.use(async (_request, next) => {
  const start = performance.now();
  try {
    return await next();
  } finally {
    slowest = Math.max(slowest, performance.now() - start);
  }
});
process.on('exit', () => void slowest);
await server.connect(new StdioServerTransport());

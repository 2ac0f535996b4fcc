import { StdioServerTransport } from 'toolwire/stdio';
import server from './tools.js'; // tools.ts: TypeScript names it by the file it compiles to

await server.connect(new StdioServerTransport());

/**
 * @module `toolwire/stdio`: stdio transports for Node.js (server side and client side).
 */
export { StdioServerTransport } from './transports/stdio/serverTransport.js';
export type { StdioServerOptions } from './transports/stdio/serverTransport.js';
export { ServerExitedError, StdioClientTransport } from './transports/stdio/clientTransport.js';
export type { ExitStatus, StdioClientOptions } from './transports/stdio/clientTransport.js';
export { defaultEnvironment } from './transports/stdio/environment.js';
export { LineDecoder } from './transports/stdio/lineDecoder.js';
export type { LineSink } from './transports/stdio/lineDecoder.js';

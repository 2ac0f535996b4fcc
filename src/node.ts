/**
 * @module `toolwire/node`: running `toolwire/http`'s handler on Node's `http` server.
 */
export { serveHttp, toNodeListener, toRequest, writeResponse } from './transports/http/node.js';
export { isLoopbackHost } from './transports/http/loopback.js';
export type { FetchHandler, HttpListener, ServeHttpOptions } from './transports/http/node.js';

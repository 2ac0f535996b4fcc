/**
 * @module `toolwire serve <module>`: loads a module that exports an McpServer (or a function
 * returning one) and serves it over stdio, or over Streamable HTTP with `--http <port>`, until
 * stdin closes (stdio) or a signal arrives; on a signal, HTTP shuts down gracefully.
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHttpHandler } from '../http.js';
import { serveHttp } from '../node.js';
import type { McpServer } from '../server.js';
import { StdioServerTransport } from '../stdio.js';
import type { ServeCommand } from './args.js';
import { UsageError } from './args.js';
import { guardStdout } from './stdoutGuard.js';

function looksLikeServer(value: unknown): value is McpServer {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as McpServer).connect === 'function' &&
    typeof (value as McpServer).registerTool === 'function'
  );
}

/** Loads the server a module exports. */
export async function loadServer(
  modulePath: string,
  exportName: string | undefined,
): Promise<McpServer> {
  const url = pathToFileURL(
    isAbsolute(modulePath) ? modulePath : resolve(process.cwd(), modulePath),
  ).href;
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`serve: cannot load ${modulePath}: ${(error as Error).message}`);
  }
  const names = exportName ? [exportName] : ['default', 'server'];
  for (const name of names) {
    let candidate = loaded[name];
    if (typeof candidate === 'function' && !looksLikeServer(candidate))
      candidate = await (candidate as () => unknown)();
    if (looksLikeServer(candidate)) return candidate;
  }
  throw new UsageError(
    `serve: ${modulePath} exports no McpServer as ${names.map((n) => `"${n}"`).join(' or ')} (a server or a function returning one)`,
  );
}

function onSignal(stop: () => void): void {
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** Serves until stdin ends (stdio) or SIGINT/SIGTERM; resolves with the exit code. */
export async function serve(command: ServeCommand): Promise<number> {
  const server = await loadServer(command.module, command.exportName);
  const mode = command.mode;
  if (mode.kind === 'stdio') {
    const transport = new StdioServerTransport();
    guardStdout();
    const session = await server.connect(transport);
    return new Promise<number>((done) => {
      session.connection.onClose(() => done(0));
      onSignal(() => void server.close().then(() => done(0)));
    });
  }
  const handler = createHttpHandler(server, {
    stateless: mode.stateless,
    origins: {
      ...(mode.allowedHosts ? { allowedHosts: mode.allowedHosts } : {}),
      ...(mode.allowedOrigins ? { allowedOrigins: mode.allowedOrigins } : {}),
    },
  });
  const listener = await serveHttp(handler, { port: mode.port, host: mode.host });
  process.stderr.write(
    `toolwire: serving ${server.serverInfo.name} on ${listener.url}/mcp (HTTP+SSE for 2024-11-05 clients at ${listener.url}/sse)\n`,
  );
  return new Promise<number>((done) => {
    onSignal(() => {
      process.stderr.write('toolwire: shutting down (in-flight calls get 10 s)\n');
      void handler
        .close({ graceMs: 10_000 })
        .then(() => listener.close())
        .then(() => done(0));
    });
  });
}

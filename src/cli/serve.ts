/**
 * @module `toolwire serve <module>`: loads a module that exports an McpServer (or a function
 * returning one) and serves it over stdio, or over Streamable HTTP with `--http <port>`
 * (serveOverHttp.ts, loaded only then), until stdin closes (stdio) or a signal arrives; on a
 * signal, HTTP shuts down gracefully.
 */
import { StdioServerTransport } from '../transports/stdio/serverTransport.js';
import type { ServeCommand } from './args.js';
import { loadServer } from './serveModule.js';
import { onSignal } from './stopSignal.js';
import { guardStdout, sayWaitingOnTerminal } from './stdoutGuard.js';
import { superviseWatch } from './watch.js';

/**
 * Serves until stdin ends (stdio) or SIGINT/SIGTERM; resolves with the exit code. With
 * `--watch`, supervises a server process instead, restarting it when its files change.
 */
export async function serve(command: ServeCommand): Promise<number> {
  if (command.watch) return superviseWatch(command);
  const mode = command.mode;
  if (mode.kind === 'http')
    return import('./serveOverHttp.js').then((http) => http.serveOverHttp(command, mode));
  // The transport binds the real stdout first; then the guard sends everything else the
  // process prints to stderr, including what the module prints while it is imported.
  const transport = new StdioServerTransport();
  guardStdout();
  const server = await loadServer(command.module, command.exportName);
  const session = await server.connect(transport);
  sayWaitingOnTerminal(server.serverInfo.name);
  return new Promise<number>((done) => {
    session.connection.onClose(() => done(0));
    onSignal(() => void server.close().then(() => done(0)));
  });
}

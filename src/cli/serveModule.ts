/**
 * @module The module `toolwire serve` serves: loaded (TypeScript through tsx), and its McpServer
 * found (the default export, or the one --export names, or a factory returning one); a module
 * that does not export one is refused, saying what `serve` expects.
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { InstanceLink } from '../redis.js';
import type { McpServer } from '../server.js';
import { UsageError } from './args.js';
import { isTypeScript, prepareTypeScript, unwrapInterop } from './typescript.js';
import { reportLoadedFiles } from './watch.js';

function looksLikeServer(value: unknown): value is McpServer {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as McpServer).connect === 'function' &&
    typeof (value as McpServer).registerTool === 'function'
  );
}

/**
 * What `toolwire serve` passes to a module's server factory (`export default (context) => ...`).
 * With `--redis`, `instances` links this instance to the others serving the same clients.
 */
export interface ServeContext {
  readonly instances?: InstanceLink;
}

/** Loads the server a module exports. */
export async function loadServer(
  modulePath: string,
  exportName: string | undefined,
  context: ServeContext = {},
): Promise<McpServer> {
  const file = isAbsolute(modulePath) ? modulePath : resolve(process.cwd(), modulePath);
  if (isTypeScript(file)) await prepareTypeScript(file);
  // Under `serve --watch`: tell the supervisor each file the module loads (after tsx's hooks).
  const loadedAll = reportLoadedFiles();
  let loaded: Record<string, unknown>;
  try {
    loaded = unwrapInterop((await import(pathToFileURL(file).href)) as Record<string, unknown>);
  } catch (error) {
    throw new UsageError(`serve: cannot load ${modulePath}: ${(error as Error).message}`);
  } finally {
    loadedAll();
  }
  const names = exportName ? [exportName] : ['default', 'server'];
  for (const name of names) {
    let candidate = loaded[name];
    if (typeof candidate === 'function' && !looksLikeServer(candidate))
      candidate = await (candidate as (context: ServeContext) => unknown)(context);
    if (looksLikeServer(candidate)) return candidate;
  }
  throw new UsageError(refusal(modulePath, exportName, Object.keys(loaded)));
}

/**
 * Why a module cannot be served, and the shape `serve` expects: its default export (or the one
 * --export names) is an McpServer or a function returning one. A module exporting nothing is
 * likely a program connecting its server itself: that one is run with node instead.
 */
function refusal(modulePath: string, exportName: string | undefined, exported: string[]): string {
  const found = exported.length > 0 ? `its exports: ${exported.join(', ')}` : 'it exports nothing';
  if (exportName !== undefined)
    return (
      `serve: ${modulePath} exports no McpServer as "${exportName}" (${found}): ` +
      `export the McpServer (or a function returning one) under that name, or leave out --export ` +
      `to serve the default export`
    );
  const program =
    exported.length === 0
      ? '. A module that connects its server itself (server.connect(...)) is a program: run it ' +
        'with node (or tsx) instead of toolwire serve'
      : '';
  return (
    `serve: ${modulePath} exports no McpServer (${found}): ` +
    `export default an McpServer (or a function returning one), as in "export default server;", ` +
    `or name the export with --export <name>${program}`
  );
}

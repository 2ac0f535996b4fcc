/**
 * @module `toolwire serve <module>`: loads a module that exports an McpServer (or a function
 * returning one) and serves it over stdio, or over Streamable HTTP with `--http <port>`, until
 * stdin closes (stdio) or a signal arrives; on a signal, HTTP shuts down gracefully.
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createHttpHandler,
  introspectionVerifier,
  jwtVerifier,
  type HttpCluster,
  type OAuthOptions,
  type StreamableHttpHandler,
} from '../http.js';
import { serveHttp } from '../node.js';
import { createRedisScaleOut, type InstanceLink } from '../redis.js';
import type { McpServer } from '../server.js';
import { StdioServerTransport } from '../stdio.js';
import type { ServeCommand } from './args.js';
import { UsageError } from './args.js';
import type { ServeAuth } from './authArgs.js';
import { guardStdout, sayWaitingOnTerminal } from './stdoutGuard.js';
import { isTypeScript, prepareTypeScript, unwrapInterop } from './typescript.js';
import { reportLoadedFiles, superviseWatch } from './watch.js';

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

function onSignal(stop: () => void): void {
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/**
 * Serves until stdin ends (stdio) or SIGINT/SIGTERM; resolves with the exit code. With
 * `--watch`, supervises a server process instead, restarting it when its files change.
 */
export async function serve(command: ServeCommand): Promise<number> {
  if (command.watch) return superviseWatch(command);
  const mode = command.mode;
  if (mode.kind === 'http') return serveOverHttp(command, mode);
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

type HttpMode = Extract<ServeCommand['mode'], { kind: 'http' }>;

/** What each option of the library is called on the command line, for its error messages. */
const FLAG_NAMES: ReadonlyArray<readonly [string, string]> = [
  ['origins.allowedHosts', '--allowed-host'],
  ['origins.allowedOrigins', '--allowed-origin'],
  ['oauth: resource', '--auth-audience'],
  ['oauth: authorization server', '--auth-server'],
  ['oauth: scopes:', '--auth-scope:'],
  ['jwtVerifier: jwksUrl', '--auth-jwks'],
  ['jwtVerifier: issuer', '--auth-issuer'],
  ['introspectionVerifier: endpoint', '--auth-introspection'],
  ['allowLoopbackHttp', '--auth-allow-loopback-http'],
];

/**
 * The `oauth` option of `serve --auth-*`: the verifier (JWT with `jose` loaded, or introspection
 * with the secret from the environment) and the metadata.
 */
async function oauthOf(auth: ServeAuth): Promise<OAuthOptions> {
  const verify = auth.verify;
  const allowLoopbackHttp = auth.allowLoopbackHttp;
  let verifier: OAuthOptions['verifier'];
  if (verify.kind === 'jwt') {
    const jwt = jwtVerifier({ jwksUrl: verify.jwksUrl, issuer: auth.issuer, allowLoopbackHttp });
    // Fails here, before listening, when the optional jose package is missing.
    await jwt.ready;
    verifier = jwt;
  } else {
    const clientSecret = process.env[verify.clientSecretEnv];
    if (clientSecret === undefined || clientSecret === '')
      throw new UsageError(
        `serve: the environment variable ${verify.clientSecretEnv} (--auth-client-secret-env) is not set`,
      );
    verifier = introspectionVerifier({
      endpoint: verify.endpoint,
      clientId: verify.clientId,
      clientSecret,
      issuer: auth.issuer,
      allowLoopbackHttp,
    });
  }
  return {
    resource: auth.resource,
    authorizationServers: auth.authorizationServers,
    scopes: auth.scopes,
    verifier,
    allowLoopbackHttp,
  };
}

/**
 * The handler `serve --http` runs; a malformed --allowed-host, --allowed-origin or --auth-* value
 * is a usage error.
 */
async function httpHandlerOf(
  server: McpServer,
  mode: HttpMode,
  scaleOut: { cluster: HttpCluster } | undefined,
): Promise<StreamableHttpHandler> {
  try {
    const oauth = mode.auth ? await oauthOf(mode.auth) : undefined;
    return createHttpHandler(server, {
      stateless: mode.stateless,
      origins: {
        ...(mode.allowedHosts ? { allowedHosts: mode.allowedHosts } : {}),
        ...(mode.allowedOrigins ? { allowedOrigins: mode.allowedOrigins } : {}),
      },
      ...(scaleOut ? { cluster: scaleOut.cluster } : {}),
      ...(oauth ? { oauth } : {}),
    });
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    let message = error.message;
    for (const [option, flag] of FLAG_NAMES) message = message.replace(option, flag);
    throw new UsageError(`serve: ${message}`);
  }
}

/**
 * Serves over Streamable HTTP until SIGINT/SIGTERM. With `--redis`, connects to Redis first
 * (failing when it cannot), keeps the server's tasks there and shares sessions and events.
 */
async function serveOverHttp(command: ServeCommand, mode: HttpMode): Promise<number> {
  const scaleOut = mode.redis
    ? await createRedisScaleOut({
        url: mode.redis.url,
        ...(mode.redis.keyPrefix !== undefined ? { keyPrefix: mode.redis.keyPrefix } : {}),
      })
    : undefined;
  try {
    const server = await loadServer(
      command.module,
      command.exportName,
      scaleOut ? { instances: scaleOut } : {},
    );
    if (scaleOut && server.tasks) server.useTaskStore(scaleOut.taskStore);
    // Rate limits and the concurrency cap the module sets hold across the instances.
    if (scaleOut) server.useRateLimitStore(scaleOut.rateLimitStore);
    const handler = await httpHandlerOf(server, mode, scaleOut);
    // A non-loopback --host (allowed by --allowed-host or --allow-unauthenticated-remote) is
    // reported by the handler: the warning lands on stderr.
    const listener = await serveHttp(handler, { port: mode.port, host: mode.host });
    const shared = scaleOut ? ` as instance ${scaleOut.instanceId} sharing state in Redis` : '';
    const auth = mode.auth ? `, OAuth access tokens of ${mode.auth.issuer} required` : '';
    process.stderr.write(
      `toolwire: serving ${server.serverInfo.name} on ${listener.url}${shared}${auth} (HTTP+SSE for 2024-11-05 clients at ${listener.origin}/sse)\n`,
    );
    return await new Promise<number>((done) => {
      onSignal(() => {
        process.stderr.write('toolwire: shutting down (in-flight calls and tasks get 10 s)\n');
        // New requests are refused at once; calls in flight and running tasks finish meanwhile.
        void Promise.all([handler.close({ graceMs: 10_000 }), server.tasks?.drain(10_000)])
          .then(() => listener.close())
          .then(() => server.close())
          .finally(() => done(0));
      });
    });
  } finally {
    await scaleOut?.close();
  }
}

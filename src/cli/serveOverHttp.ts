/**
 * @module `toolwire serve <module> --http <port>`: the module's server over Streamable HTTP (and
 * HTTP+SSE for 2024-11-05 clients), with OAuth and Redis scale-out when asked, until SIGINT or
 * SIGTERM, then a graceful shutdown. Loaded only for `--http`, so that a stdio server does not
 * load the HTTP transport, the OAuth verifiers or the Redis link.
 */
import {
  createHttpHandler,
  introspectionVerifier,
  jwtVerifier,
  type HttpCluster,
  type OAuthOptions,
  type StreamableHttpHandler,
} from '../http.js';
import { serveHttp } from '../transports/http/server/adapters/node.js';
import { createRedisScaleOut } from '../stores/redisScaleOut.js';
import type { McpServer } from '../server.js';
import { UsageError, type ServeCommand } from './args.js';
import type { ServeAuth } from './authArgs.js';
import { loadServer } from './serveModule.js';
import { onSignal } from './stopSignal.js';

export type HttpMode = Extract<ServeCommand['mode'], { kind: 'http' }>;

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
export async function serveOverHttp(command: ServeCommand, mode: HttpMode): Promise<number> {
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
    // A 2026 call's rounds of input may reach any instance; an approval is used once in all.
    if (scaleOut) server.useInputRoundTrips(scaleOut.inputRoundTrips);
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

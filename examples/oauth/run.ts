/**
 * @module OAuth on one machine (`npm run example:oauth`): a development authorization server
 * (oidc-provider, where anyone signs in with any password), and `toolwire serve` of tools.ts
 * requiring its access tokens; then prints the `toolwire login`, `call` and `logout` commands
 * that work against them. Ctrl-C stops both.
 *
 *   node build/examples/oauth/run.js [--port 3100] [--auth-port 3101]    (0: a free port)
 *
 * The authorization server keeps everything in memory, with a signing key made at start: tokens
 * from an earlier run are refused (`toolwire login` again). Development only.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type Provider from 'oidc-provider';
import {
  onStop,
  portOr,
  repositoryRoot,
  start,
  stopAll,
  toolwireCommand,
} from '../shared/processes.js';

const SCOPE = 'mcp:tools';

/** oidc-provider's class, without the warnings it prints about itself on import and start. */
async function quietly<T>(make: () => Promise<T>): Promise<T> {
  const warn = console.warn;
  // "Unsupported runtime" on Node 20 (it supports the LTS releases from 22 on, and works here)
  // and "development-only" for the login pages: both are what this example is.
  console.warn = (...args: unknown[]) => {
    if (!/Unsupported runtime|development-only|dev-only/i.test(String(args[0]))) warn(...args);
  };
  try {
    return await make();
  } finally {
    console.warn = warn;
  }
}

/**
 * A development authorization server on 127.0.0.1:`port` (0: a free one, taken at once), issuing
 * JWTs for `resource()` (the MCP server's URL, known once that server listens).
 */
async function authorizationServer(
  port: number,
  resource: () => string,
): Promise<{ server: Server; issuer: string }> {
  // The provider needs the issuer, which needs the port: it handles requests once it exists.
  const route: { handle?: (req: IncomingMessage, res: ServerResponse) => void } = {};
  const server = createServer((req, res) => route.handle?.(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const address = server.address();
  const issuer = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const key: JWK = { ...(await exportJWK(privateKey)), kid: 'example', alg: 'ES256', use: 'sig' };
  const provider: Provider = await quietly(async () => {
    const { default: Provider } = await import('oidc-provider');
    return new Provider(issuer, {
      jwks: { keys: [key] },
      scopes: ['openid', 'offline_access', SCOPE],
      // Any name signs in (the development login page takes any password).
      findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
      pkce: { required: () => true },
      clientDefaults: { id_token_signed_response_alg: 'ES256' },
      // A client allowed the refresh_token grant gets a refresh token.
      issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
      features: {
        devInteractions: { enabled: true },
        // Dynamic Client Registration (RFC 7591): `toolwire login` registers itself.
        registration: { enabled: true },
        revocation: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => resource(),
          useGrantedResource: () => true,
          // Access tokens for the MCP server are JWTs it checks with the published keys.
          getResourceServerInfo: () => ({
            scope: SCOPE,
            accessTokenFormat: 'jwt',
            accessTokenTTL: 600,
            jwt: { sign: { alg: 'ES256' } },
          }),
        },
      },
    });
  });
  const callback = provider.callback();
  route.handle = (req, res) => void callback(req, res);
  return { server, issuer };
}

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '3100' },
    'auth-port': { type: 'string', default: '3101' },
  },
});
const root = repositoryRoot();
const toolwire = toolwireCommand(root);
let url = '';
const { server: auth, issuer } = await authorizationServer(Number(values['auth-port']), () => url);
const module = join(root, 'build/examples/oauth/tools.js');
let serveArgs: string[] = [];
// A free port is found, then taken by the server's process: another process may take it first,
// and then another is tried.
for (let attempt = 1; ; attempt++) {
  const port = await portOr(Number(values.port));
  url = `http://127.0.0.1:${port}/mcp`;
  serveArgs = [
    ...['serve', module, '--http', String(port)],
    ...['--auth-audience', url, '--auth-issuer', issuer, '--auth-jwks', `${issuer}/jwks`],
    ...['--auth-scope', SCOPE, '--auth-allow-loopback-http'],
  ];
  try {
    await start(
      'toolwire serve',
      process.execPath,
      [toolwire.file, ...serveArgs],
      /serving .* on /,
    );
    break;
  } catch (error) {
    const taken = /EADDRINUSE/.test(String(error));
    if (!taken || Number(values.port) !== 0 || attempt >= 5) throw error;
  }
}

const shown = (...args: string[]) => `  ${toolwire.shown} ${args.join(' ')}`;
console.log(`Development authorization server: ${issuer} (oidc-provider: any name, any password)
Protected MCP server: ${url}, requiring its access tokens with scope ${SCOPE}:
${shown(...serveArgs.map((arg) => (arg === module ? relative(process.cwd(), module) : arg)))}

In another terminal, in this folder:
${shown('login', url, '--allow-loopback-http')}
    opens the sign-in page (or prints its address): sign in with any name and password, allow
${shown('call', 'whoami', url, '--allow-loopback-http')}
    the call carries the access token (on a terminal it asks first; --yes allows without asking)
${shown('logout', url, '--allow-loopback-http')}
    forgets and revokes the tokens

Ctrl-C stops both servers.`);

onStop(async () => {
  await stopAll();
  auth.closeAllConnections();
  await new Promise((resolve) => auth.close(resolve));
});

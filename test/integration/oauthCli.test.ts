/**
 * Issue 11: `toolwire serve --http --auth-*` end to end, with tokens from a real authorization
 * server (oidc-provider on 127.0.0.1): JWT access tokens checked against its key set, opaque ones
 * by introspection with the client secret taken from the environment, and `toolwire list` with
 * `--header "Authorization: Bearer ..."` as the client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretOf, startAuthServer, type TestAuthServer } from '../support/authServer.js';
import { CLI_SERVER, startToolwire, until } from '../support/cliRun.js';
import { initializeMessage } from '../support/httpHarness.js';
import { freePort } from '../support/redis.js';

let auth: TestAuthServer;
const children: Array<ReturnType<typeof startToolwire>> = [];

beforeAll(async () => {
  auth = await startAuthServer();
});

afterAll(async () => {
  for (const child of children) {
    child.kill('SIGTERM');
    await child.exited;
  }
  await auth?.close();
});

/** `toolwire serve` of the CLI fixture on a free port with `flags`; resolves with its /mcp URL. */
async function serve(
  flags: (resource: string) => string[],
  env: Record<string, string> = {},
): Promise<string> {
  const port = await freePort();
  const resource = `http://127.0.0.1:${port}/mcp`;
  const child = startToolwire(
    ['serve', CLI_SERVER, '--http', String(port), ...flags(resource)],
    env,
  );
  children.push(child);
  await until(
    () => child.output().stderr.includes(resource) || child.exitCode !== null,
    15_000,
    'serve to listen',
  );
  if (child.exitCode !== null) throw new Error(`serve exited: ${child.output().stderr}`);
  return resource;
}

/** Runs `toolwire list` without blocking this process (the authorization server lives here). */
async function list(url: string, token: string | undefined) {
  const header = token === undefined ? [] : ['--header', `Authorization: Bearer ${token}`];
  return startToolwire(['list', url, ...header]).exited;
}

const initialize = JSON.stringify(initializeMessage());

function post(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...headers,
    },
    body: initialize,
  });
}

describe('toolwire serve --auth-jwks', () => {
  it('requires a JWT access token for its audience with the scopes given', async () => {
    const url = await serve((resource) => [
      ...['--auth-jwks', auth.jwksUri, '--auth-issuer', auth.issuer],
      ...['--auth-audience', resource, '--auth-scope', 'mcp:tools', '--auth-allow-loopback-http'],
    ]);
    const origin = new URL(url).origin;
    const refused = await post(url);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer scope="mcp:tools", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    const metadata = await (
      await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)
    ).json();
    expect(metadata).toEqual({
      resource: url,
      authorization_servers: [auth.issuer],
      scopes_supported: ['mcp:tools'],
      bearer_methods_supported: ['header'],
    });
    const token = await auth.clientCredentials({ clientId: 'service-a', resource: url });
    const listed = await list(url, token);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^slow\n/m);
    const other = await auth.clientCredentials({ clientId: 'service-a', resource: `${origin}/x` });
    const wrong = await post(url, { authorization: `Bearer ${other}` });
    expect(wrong.status).toBe(401);
    const unscoped = await auth.clientCredentials({
      clientId: 'service-a',
      resource: url,
      scope: 'files:read',
    });
    expect((await post(url, { authorization: `Bearer ${unscoped}` })).status).toBe(403);
    expect((await list(url, undefined)).code).not.toBe(0);
  });
});

describe('toolwire serve --auth-introspection', () => {
  it('asks the introspection endpoint, with the secret from the environment', async () => {
    const url = await serve(
      (resource) => [
        ...['--auth-introspection', auth.introspectionEndpoint, '--auth-issuer', auth.issuer],
        ...['--auth-client-id', 'resource-server', '--auth-client-secret-env', 'RS_SECRET'],
        ...['--auth-audience', resource, '--auth-allow-loopback-http'],
      ],
      { RS_SECRET: secretOf('resource-server') },
    );
    const token = await auth.clientCredentials({ clientId: 'opaque-a', resource: url });
    const listed = await list(url, token);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^slow\n/m);
    expect((await post(url)).status).toBe(401);
  });

  it('refuses to start without the secret, and with an http URL not allowed', async () => {
    const args = [
      ...['serve', CLI_SERVER, '--http', '0', '--auth-introspection', auth.introspectionEndpoint],
      ...['--auth-issuer', auth.issuer, '--auth-audience', 'https://mcp.example.com/mcp'],
      ...[
        '--auth-client-id',
        'resource-server',
        '--auth-client-secret-env',
        'TOOLWIRE_NO_SUCH_VAR',
      ],
    ];
    const unset = await startToolwire(args).exited;
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain('TOOLWIRE_NO_SUCH_VAR (--auth-client-secret-env) is not set');
    const insecure = await startToolwire(args, { TOOLWIRE_NO_SUCH_VAR: 'x' }).exited;
    expect(insecure.code).toBe(2);
    expect(insecure.stderr).toContain('--auth-allow-loopback-http');
  });
});

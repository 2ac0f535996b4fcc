/**
 * @module The `--auth-*` options of `toolwire serve --http`: an OAuth 2.1 resource server in
 * front of the module's tools, verifying JWT access tokens against a JWKS URL or asking an
 * introspection endpoint. Pure parsing (no I/O); the client secret is read from the environment
 * variable named, by `serve`, so no secret ever sits on a command line.
 */
import { UsageError } from './argValues.js';

/** How `serve` checks access tokens. */
export interface ServeAuth {
  /** `--auth-audience`: the canonical URI of the server (the metadata's `resource`, the `aud`). */
  readonly resource: string;
  /** `--auth-issuer`: the exact `iss` of the tokens. */
  readonly issuer: string;
  /** `--auth-server` (repeatable): the metadata's `authorization_servers`; default the issuer. */
  readonly authorizationServers: readonly string[];
  /** `--auth-scope` (repeatable): scopes every request needs, and the `scopes_supported`. */
  readonly scopes: readonly string[];
  /** `--auth-allow-loopback-http`: http URLs on loopback hosts (development). */
  readonly allowLoopbackHttp: boolean;
  readonly verify:
    | { readonly kind: 'jwt'; readonly jwksUrl: string }
    | {
        readonly kind: 'introspection';
        readonly endpoint: string;
        readonly clientId: string;
        /** The environment variable holding the client secret. */
        readonly clientSecretEnv: string;
      };
}

/** The `--auth-*` options, as `util.parseArgs` declares them. */
export const AUTH_OPTIONS = {
  'auth-audience': { type: 'string' },
  'auth-issuer': { type: 'string' },
  'auth-server': { type: 'string', multiple: true },
  'auth-scope': { type: 'string', multiple: true },
  'auth-jwks': { type: 'string' },
  'auth-introspection': { type: 'string' },
  'auth-client-id': { type: 'string' },
  'auth-client-secret-env': { type: 'string' },
  'auth-allow-loopback-http': { type: 'boolean' },
} as const;

/** The names of the `--auth-*` options. */
export const AUTH_FLAGS: string[] = Object.keys(AUTH_OPTIONS);

function need(values: Record<string, unknown>, flag: string, why: string): string {
  const value = values[flag] as string | undefined;
  if (value === undefined || value === '') throw new UsageError(`serve: ${why} needs --${flag}`);
  return value;
}

/** The auth settings of `serve --http`, or undefined when no `--auth-*` option is given. */
export function serveAuth(values: Record<string, unknown>): ServeAuth | undefined {
  if (!AUTH_FLAGS.some((flag) => values[flag] !== undefined)) return undefined;
  const jwksUrl = values['auth-jwks'] as string | undefined;
  const endpoint = values['auth-introspection'] as string | undefined;
  if ((jwksUrl === undefined) === (endpoint === undefined))
    throw new UsageError(
      'serve: authentication needs exactly one of --auth-jwks <url> (JWT access tokens) or --auth-introspection <url> (opaque tokens)',
    );
  const resource = need(values, 'auth-audience', 'authentication');
  const issuer = need(values, 'auth-issuer', 'authentication');
  let verify: ServeAuth['verify'];
  if (endpoint !== undefined) {
    verify = {
      kind: 'introspection',
      endpoint,
      clientId: need(values, 'auth-client-id', '--auth-introspection'),
      clientSecretEnv: need(values, 'auth-client-secret-env', '--auth-introspection'),
    };
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(verify.clientSecretEnv))
      throw new UsageError(
        `serve: --auth-client-secret-env takes the NAME of an environment variable holding the secret (got ${JSON.stringify(verify.clientSecretEnv)})`,
      );
  } else {
    for (const flag of ['auth-client-id', 'auth-client-secret-env'])
      if (values[flag] !== undefined)
        throw new UsageError(`serve: --${flag} applies to --auth-introspection only`);
    verify = { kind: 'jwt', jwksUrl: jwksUrl as string };
  }
  return {
    resource,
    issuer,
    authorizationServers: (values['auth-server'] as string[] | undefined) ?? [issuer],
    scopes: (values['auth-scope'] as string[] | undefined) ?? [],
    allowLoopbackHttp: values['auth-allow-loopback-http'] === true,
    verify,
  };
}

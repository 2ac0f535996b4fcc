/**
 * @module The arguments of `toolwire login <url>` and `toolwire logout <url>`: which server, which
 * scopes, how the client is registered (pre-registered id and a secret read from the environment,
 * or a Client ID Metadata Document URL; else dynamic registration), and the development switches.
 * Pure parsing (no I/O), like args.ts.
 */
import { isLoopbackHost } from '../transports/http/shared/loopback.js';
import { parseOwn, UsageError } from './argValues.js';

/** How the CLI identifies itself to the authorization server. */
export type LoginClient =
  | {
      readonly kind: 'pre-registered';
      readonly clientId: string;
      /** The environment variable holding the client secret (none: a public client). */
      readonly clientSecretEnv: string | undefined;
    }
  | { readonly kind: 'metadata-document'; readonly url: string }
  /** Dynamic client registration, when the authorization server offers it. */
  | { readonly kind: 'dynamic' };

/** `toolwire login <url>` */
export interface LoginCommand {
  kind: 'login';
  /** The MCP server's URL. */
  url: string;
  /** `--scope` (repeatable, or space-separated): the scopes to ask for; none: as the server says. */
  scopes: string[];
  client: LoginClient;
  /** `--allow-loopback-http`: authorization endpoints over http on loopback (development). */
  allowLoopbackHttp: boolean;
  /** False with `--no-browser`: the URL is only printed. */
  browser: boolean;
  /** `--redirect-port`: the loopback redirect's port (default: one the system picks). */
  redirectPort: number | undefined;
  jsonOutput: boolean;
}

/** `toolwire logout <url>` */
export interface LogoutCommand {
  kind: 'logout';
  url: string;
  /** False with `--no-revoke`: the tokens are only forgotten, nothing is sent. */
  revoke: boolean;
  /** `--allow-loopback-http`: revocation endpoints over http on loopback (development). */
  allowLoopbackHttp: boolean;
  /** `--client-secret-env`: the secret of a pre-registered client, to authenticate revocations. */
  clientSecretEnv: string | undefined;
  jsonOutput: boolean;
}

/** The options of `login`, as `util.parseArgs` declares them. */
export const LOGIN_OPTIONS = {
  scope: { type: 'string', multiple: true },
  'client-id': { type: 'string' },
  'client-secret-env': { type: 'string' },
  'client-metadata-url': { type: 'string' },
  'allow-loopback-http': { type: 'boolean' },
  'no-browser': { type: 'boolean' },
  'redirect-port': { type: 'string' },
  'json-output': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The options of `logout`. */
export const LOGOUT_OPTIONS = {
  'no-revoke': { type: 'boolean' },
  'allow-loopback-http': { type: 'boolean' },
  'client-secret-env': { type: 'string' },
  'json-output': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A scope token as RFC 6749 §3.3 defines it: printable ASCII but space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The one URL of `login` or `logout`: for `login`, an https URL, or http on a loopback host (a
 * token must not cross the network in clear); `logout` sends nothing to the server itself (only
 * to its authorization server, as that server's metadata allows), and takes any http(s) URL.
 */
function serverUrl(command: 'login' | 'logout', positionals: string[]): string {
  const [url, extra] = positionals;
  if (url === undefined || extra !== undefined)
    throw new UsageError(
      `${command}: give exactly one server URL (see toolwire ${command} --help)`,
    );
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`${command}: ${JSON.stringify(url)} is not a URL`);
  }
  if (parsed.protocol === 'https:') return url;
  if (parsed.protocol === 'http:') {
    if (command === 'logout' || isLoopbackHost(parsed.hostname)) return url;
    throw new UsageError(
      `${command}: ${JSON.stringify(url)} is not https: access tokens would cross the network in clear (http is accepted on loopback hosts only)`,
    );
  }
  throw new UsageError(`${command}: ${JSON.stringify(url)} is not an http(s) URL`);
}

function scopesOf(entries: readonly string[] | undefined): string[] {
  const scopes = (entries ?? []).flatMap((entry) => entry.split(' ').filter((s) => s !== ''));
  for (const scope of scopes)
    if (!SCOPE_TOKEN.test(scope))
      throw new UsageError(
        `login: ${JSON.stringify(scope)} is not a scope (printable characters, no quote or backslash)`,
      );
  return [...new Set(scopes)];
}

function clientOf(values: Record<string, unknown>, allowLoopbackHttp: boolean): LoginClient {
  const clientId = values['client-id'] as string | undefined;
  const secretEnv = values['client-secret-env'] as string | undefined;
  const metadataUrl = values['client-metadata-url'] as string | undefined;
  if (clientId !== undefined && metadataUrl !== undefined)
    throw new UsageError(
      'login: give either --client-id (a pre-registered client) or --client-metadata-url, not both',
    );
  if (secretEnv !== undefined && clientId === undefined)
    throw new UsageError('login: --client-secret-env applies to --client-id only');
  if (secretEnv !== undefined && !ENV_NAME.test(secretEnv))
    throw new UsageError(
      `login: --client-secret-env takes the NAME of an environment variable holding the secret (got ${JSON.stringify(secretEnv)})`,
    );
  if (clientId !== undefined) {
    if (clientId === '') throw new UsageError('login: --client-id needs a value');
    return { kind: 'pre-registered', clientId, clientSecretEnv: secretEnv };
  }
  if (metadataUrl === undefined) return { kind: 'dynamic' };
  let url: URL | undefined;
  try {
    url = new URL(metadataUrl);
  } catch {
    url = undefined;
  }
  const loopbackHttp =
    allowLoopbackHttp && url?.protocol === 'http:' && isLoopbackHost(url.hostname);
  // The Client ID Metadata Document's URL is the client id: https with a path (draft CIMD §3).
  if (!url || (url.protocol !== 'https:' && !loopbackHttp) || url.pathname === '/' || url.hash)
    throw new UsageError(
      `login: --client-metadata-url needs an https URL with a path and no fragment, such as https://app.example/client.json (got ${JSON.stringify(metadataUrl)})`,
    );
  return { kind: 'metadata-document', url: url.href };
}

function portOf(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535)
    throw new UsageError('login: --redirect-port needs a port number from 1 to 65535');
  return port;
}

/** Parses the arguments of `toolwire login`. */
export function parseLogin(own: string[]): LoginCommand {
  const { values, positionals } = parseOwn(own, LOGIN_OPTIONS, 'login');
  const allowLoopbackHttp = values['allow-loopback-http'] === true;
  return {
    kind: 'login',
    url: serverUrl('login', positionals),
    scopes: scopesOf(values.scope),
    client: clientOf(values, allowLoopbackHttp),
    allowLoopbackHttp,
    browser: values['no-browser'] !== true,
    redirectPort: portOf(values['redirect-port']),
    jsonOutput: values['json-output'] === true,
  };
}

/** Parses the arguments of `toolwire logout`. */
export function parseLogout(own: string[]): LogoutCommand {
  const { values, positionals } = parseOwn(own, LOGOUT_OPTIONS, 'logout');
  const secretEnv = values['client-secret-env'];
  if (secretEnv !== undefined && !ENV_NAME.test(secretEnv))
    throw new UsageError(
      `logout: --client-secret-env takes the NAME of an environment variable holding the secret (got ${JSON.stringify(secretEnv)})`,
    );
  const revoke = values['no-revoke'] !== true;
  if (!revoke && (secretEnv !== undefined || values['allow-loopback-http'] === true))
    throw new UsageError(
      'logout: --no-revoke sends nothing: --client-secret-env and --allow-loopback-http do not apply',
    );
  return {
    kind: 'logout',
    url: serverUrl('logout', positionals),
    revoke,
    allowLoopbackHttp: values['allow-loopback-http'] === true,
    clientSecretEnv: secretEnv,
    jsonOutput: values['json-output'] === true,
  };
}

/**
 * @module `toolwire logout <url>`: forgets what `login` stored for a server (its tokens from every
 * authorization server, and which one it used), then revokes those tokens at the authorization
 * server that issued them when it offers revocation (RFC 7009), and says what was done. The URL
 * given is matched to the stored resource URIs the way URLs compare (scheme and host in any case,
 * a default port, a trailing slash), so `https://MCP.example:443/mcp/` logs out of
 * `https://mcp.example/mcp`. The tokens are forgotten first: a revocation that fails (reported on
 * stderr, exit 0) or is interrupted (exit 130) leaves nothing behind here. Nothing is sent to the
 * MCP server itself, and nothing at all with `--no-revoke`.
 */
import type { Writable } from 'node:stream';
import type { Revocation } from '../http.js';
import { OAuthClient } from '../oauthClient/oauthClient.js';
import type { StoredTokensEntry } from '../node.js';
import { FileOAuthStore } from '../oauthClient/fileStore.js';
import { UsageError } from './argValues.js';
import type { LogoutCommand } from './loginArgs.js';
import { CliFailure, EXIT } from './failure.js';
import { interruptOnSigint, type SignalSource } from './interrupt.js';
import { terminalJson, terminalLine } from './terminalText.js';
import { packageVersion } from './version.js';

/** How long the revocation of one server's tokens at one authorization server may take. */
const REVOCATION_TIMEOUT_MS = 20_000;

/** Where `logout` writes and hears Ctrl-C; the environment it reads a client secret from. */
export interface LogoutIo {
  stdout: Pick<Writable, 'write'>;
  stderr?: Pick<Writable, 'write'>;
  signals?: SignalSource;
  env?: Readonly<Record<string, string | undefined>>;
}

/** A URL as compared for logout: parsed, without fragment, without a trailing slash. */
function comparable(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href.replace(/\/$/, '');
  } catch {
    return url;
  }
}

/** A revocation as `--json-output` prints it. */
interface RevocationReport {
  issuer: string;
  status: Revocation['status'];
  reason?: string;
  error?: string;
}

/** One resource logged out of. */
interface LoggedOut {
  resource: string;
  issuers: readonly string[];
  revocations: RevocationReport[];
}

function describe(entry: LoggedOut): string {
  const resource = terminalLine(entry.resource);
  if (entry.issuers.length === 0)
    return `Logged out of ${resource} (it had no tokens; its authorization server is forgotten).`;
  const issuers = entry.issuers.map(terminalLine).join(', ');
  const lines = [`Logged out of ${resource}: removed the tokens issued by ${issuers}.`];
  for (const { issuer, status } of entry.revocations)
    if (status === 'revoked') lines.push(`Revoked them at ${terminalLine(issuer)}.`);
    else if (status === 'unsupported')
      lines.push(
        `${terminalLine(issuer)} does not offer to revoke them: they stay valid there until they expire.`,
      );
  return lines.join('\n');
}

/** What a failed revocation says on stderr, with the way out when there is one. */
function failureText(entry: LoggedOut, report: RevocationReport, secretGiven: boolean): string {
  const hint =
    report.reason === 'invalid_client' && !secretGiven
      ? ' (a client you logged in to with --client-id and --client-secret-env needs the secret again: logout --client-secret-env <VAR>)'
      : '';
  return (
    `toolwire: could not revoke the tokens of ${terminalLine(entry.resource)} at ` +
    `${terminalLine(report.issuer)}: ${terminalLine(report.error ?? report.status)}${hint}. ` +
    `They are forgotten here, but stay valid there until they expire.\n`
  );
}

/** The secret `--client-secret-env` names; a usage error (before anything is forgotten) if unset. */
function secretOf(
  command: LogoutCommand,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (command.clientSecretEnv === undefined) return undefined;
  const secret = env[command.clientSecretEnv];
  if (secret === undefined || secret === '')
    throw new UsageError(
      `logout: the environment variable ${command.clientSecretEnv} (--client-secret-env) is not set`,
    );
  return secret;
}

/** Revokes one forgotten token set as the client it was issued to. */
async function revoke(
  entry: StoredTokensEntry,
  context: { command: LogoutCommand; store: FileOAuthStore; secret: string | undefined },
  signal: AbortSignal,
): Promise<RevocationReport> {
  const { command, store, secret } = context;
  const client = await store.getClient(entry.issuer).catch(() => undefined);
  // The secret of a pre-registered client is the user's, never stored: given again to revoke.
  const preRegistered =
    client?.registration === 'pre-registered' &&
    client.tokenEndpointAuthMethod !== 'none' &&
    secret !== undefined
      ? {
          clientId: client.clientId,
          clientSecret: secret,
          tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
          issuer: entry.issuer,
        }
      : undefined;
  const oauth = new OAuthClient({
    store,
    clientName: 'toolwire',
    softwareVersion: packageVersion(),
    allowLoopbackHttp: command.allowLoopbackHttp,
    ...(preRegistered ? { preRegistered } : {}),
  });
  const revocation = await oauth.revoke(entry, entry.tokens, {
    signal: AbortSignal.any([signal, AbortSignal.timeout(REVOCATION_TIMEOUT_MS)]),
  });
  return {
    issuer: revocation.issuer,
    status: revocation.status,
    ...(revocation.error
      ? { reason: revocation.error.reason, error: revocation.error.message }
      : {}),
  };
}

/** `toolwire logout` */
export async function logoutCommand(
  command: LogoutCommand,
  io: LogoutIo,
  store: FileOAuthStore = new FileOAuthStore(),
): Promise<number> {
  const secret = secretOf(command, io.env ?? process.env);
  const wanted = comparable(command.url);
  const matches = (await store.resources()).filter((r) => comparable(r) === wanted);
  const interrupt = interruptOnSigint(io.signals);
  const loggedOut: LoggedOut[] = [];
  try {
    for (const resource of matches) {
      // Read and forgotten in one turn of the file's lock: what is revoked is what was removed.
      const { removed, issuers } = await store.exclusive(async () => {
        const entries = (await store.entries()).filter((e) => e.resource === resource);
        return { removed: entries, ...(await store.forgetResource(resource)) };
      });
      const entry: LoggedOut = { resource, issuers, revocations: [] };
      loggedOut.push(entry);
      if (!command.revoke) continue;
      for (const tokens of removed) {
        if (interrupt.interrupted) break;
        entry.revocations.push(await revoke(tokens, { command, store, secret }, interrupt.signal));
      }
    }
  } finally {
    interrupt.dispose();
  }
  if (interrupt.interrupted)
    throw new CliFailure({
      kind: 'interrupted',
      message:
        'interrupted: the tokens are forgotten here, but their revocation at the authorization server did not finish',
      exitCode: EXIT.interrupted,
    });
  for (const entry of loggedOut)
    for (const report of entry.revocations)
      if (report.status === 'failed')
        io.stderr?.write(failureText(entry, report, secret !== undefined));
  if (command.jsonOutput)
    io.stdout.write(terminalJson({ url: command.url, loggedOut, file: store.path }, 2) + '\n');
  else if (loggedOut.length === 0)
    io.stdout.write(
      `Not logged in to ${terminalLine(command.url)}: nothing stored for it in ${store.path}.\n`,
    );
  else io.stdout.write(loggedOut.map(describe).join('\n') + '\n');
  return EXIT.ok;
}

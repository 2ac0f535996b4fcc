/**
 * @module `toolwire login <url>`: the OAuth 2.1 authorization of one MCP server, run by the
 * library's OAuthClient with the Node pieces: the credentials file (0600), a one-shot listener on
 * 127.0.0.1 for the redirect, and the authorization URL printed on stderr (and opened in a
 * browser when there is one). Ctrl-C abandons the login and exits 130.
 */
import type { Writable } from 'node:stream';
import type { OAuthClientOptions } from '../http.js';
import { OAuthClient } from '../oauthClient/oauthClient.js';
import { browserOpener } from '../oauthClient/browserOpener.js';
import { FileOAuthStore } from '../oauthClient/fileStore.js';
import { LoopbackRedirectReceiver } from '../oauthClient/loopbackReceiver.js';
import { UsageError } from './argValues.js';
import { CliFailure, EXIT } from './failure.js';
import { interruptOnSigint, type SignalSource } from './interrupt.js';
import type { LoginCommand } from './loginArgs.js';
import { terminalJson, terminalLine } from './terminalText.js';
import { packageVersion } from './version.js';

/** Where `login` writes and hears Ctrl-C; the environment it reads a client secret from. */
export interface LoginIo {
  stdout: Pick<Writable, 'write'>;
  stderr: Pick<Writable, 'write'>;
  signals?: SignalSource;
  env?: Readonly<Record<string, string | undefined>>;
}

/** How the command line registers the client, as OAuthClient options. */
function registrationOf(
  command: LoginCommand,
  env: Readonly<Record<string, string | undefined>>,
): Pick<OAuthClientOptions, 'preRegistered' | 'clientMetadataUrl' | 'dynamicRegistration'> {
  const client = command.client;
  if (client.kind === 'metadata-document') return { clientMetadataUrl: client.url };
  if (client.kind === 'dynamic') return {};
  let secret: string | undefined;
  if (client.clientSecretEnv !== undefined) {
    secret = env[client.clientSecretEnv];
    if (secret === undefined || secret === '')
      throw new UsageError(
        `login: the environment variable ${client.clientSecretEnv} (--client-secret-env) is not set`,
      );
  }
  // A client id the user names is the one to use: no other registration is attempted.
  return {
    preRegistered: {
      clientId: client.clientId,
      ...(secret !== undefined ? { clientSecret: secret } : {}),
    },
    dynamicRegistration: false,
  };
}

/** `toolwire login` */
export async function loginCommand(command: LoginCommand, io: LoginIo): Promise<number> {
  const store = new FileOAuthStore();
  const receiver = new LoopbackRedirectReceiver(
    command.redirectPort !== undefined ? { port: command.redirectPort } : {},
  );
  const oauth = new OAuthClient({
    store,
    clientName: 'toolwire',
    softwareId: 'toolwire-cli',
    softwareVersion: packageVersion(),
    redirectReceiver: receiver,
    openAuthorizationUrl: browserOpener({
      browser: command.browser,
      allowLoopbackHttp: command.allowLoopbackHttp,
      output: io.stderr,
    }),
    allowLoopbackHttp: command.allowLoopbackHttp,
    ...(command.scopes.length > 0 ? { scopes: command.scopes } : {}),
    ...registrationOf(command, io.env ?? process.env),
  });
  const interrupt = interruptOnSigint(io.signals);
  try {
    const result = await oauth.authorize(command.url, { signal: interrupt.signal });
    if (command.jsonOutput)
      io.stdout.write(terminalJson({ ...result, file: store.path }, 2) + '\n');
    else
      io.stdout.write(
        `Logged in to ${terminalLine(result.resource)} (authorization server ` +
          `${terminalLine(result.issuer)}; scopes: ${terminalLine(result.scope ?? 'none named')}` +
          `${result.hasRefreshToken ? '; refreshed automatically' : ''}).\n` +
          `Tokens kept in ${store.path}.\n`,
      );
    return EXIT.ok;
  } catch (error) {
    if (interrupt.interrupted)
      throw new CliFailure({
        kind: 'interrupted',
        message: 'interrupted; nothing was stored',
        exitCode: EXIT.interrupted,
      });
    throw error;
  } finally {
    interrupt.dispose();
    await receiver.close();
  }
}

/**
 * @module `toolwire console <url>... [-- <command> [args...]]`: the human in the loop in a
 * browser. Connects to each server named (several at once), serves the console page and its API
 * on 127.0.0.1 (a random port unless `--port`; another address only with `--host`), and prints
 * the URL with a one-time sign-in token (a signed-in page gives links for other browsers), then connects: a protected
 * server's OAuth login (as `toolwire login`) is a sign-in link on the page, and a server that
 * cannot be reached is shown failed, to retry from there. Ctrl-C closes everything.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { OAuthClient } from '../oauthClient/oauthClient.js';
import { HttpClientTransport } from '../transports/http/client/httpClient.js';
import type { HttpListener } from '../node.js';
import { FileOAuthStore } from '../oauthClient/fileStore.js';
import { LoopbackRedirectReceiver } from '../oauthClient/loopbackReceiver.js';
import { serveHttp } from '../transports/http/server/adapters/node.js';
import { isLoopbackHost } from '../transports/http/shared/loopback.js';
import { StdioClientTransport } from '../transports/stdio/clientTransport.js';
import type { ConsoleCommand } from './consoleArgs.js';
import { ApprovalsFile } from './approvalsFile.js';
import { readConfig, type CliConfig } from './config.js';
import { serverIdentity } from './serverIdentity.js';
import { ConsoleGuard, isWildcard } from './console/consoleGuard.js';
import { consoleHandler, type ConsoleAssets } from './console/consoleHandler.js';
import { ConsoleSession, type ConsoleEvent } from './console/consoleSession.js';
import { defaultHistoryPath, HistoryFile } from './console/historyFile.js';
import type { ServerConnector } from './console/serverLink.js';
import { SignInRelay } from './console/signInRelay.js';
import { EXIT } from './failure.js';
import { interruptOnSigint, type SignalSource } from './interrupt.js';
import { terminalLine } from './terminalText.js';
import { packageVersion } from './version.js';

/** The page and its bundled assets, beside the CLI in dist/. */
function assets(): ConsoleAssets {
  const read = (name: string) =>
    readFileSync(new URL(`../console/${name}`, import.meta.url), 'utf8');
  return {
    html:
      '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
      '<meta name="viewport" content="width=device-width, initial-scale=1">' +
      '<title>toolwire console</title><link rel="stylesheet" href="/assets/app.css"></head>' +
      '<body><div id="app"></div><script src="/assets/app.js"></script></body></html>',
    files: new Map([
      ['/assets/app.js', { type: 'text/javascript; charset=utf-8', body: read('app.js') }],
      ['/assets/app.css', { type: 'text/css; charset=utf-8', body: read('app.css') }],
    ]),
  };
}

/** How to reach each server named, keyed as the approvals file keys it. */
function connectors(
  command: ConsoleCommand,
): Array<{ target: string; connector: ServerConnector }> {
  const all = command.urls.map((url): { target: string; connector: ServerConnector } => {
    const signIn = new SignInRelay(new LoopbackRedirectReceiver({ returnTo: 'toolwire console' }));
    const auth = new OAuthClient({
      store: new FileOAuthStore(),
      clientName: 'toolwire console',
      softwareVersion: packageVersion(),
      allowLoopbackHttp: command.allowLoopbackHttp,
      openAuthorizationUrl: signIn.open,
      redirectReceiver: signIn.receiver,
    });
    return {
      target: serverIdentity({ kind: 'url', url }),
      connector: { transport: () => new HttpClientTransport(url, { auth }), signIn },
    };
  });
  const line = command.command;
  if (line) {
    let last: StdioClientTransport | undefined;
    all.push({
      target: serverIdentity({ kind: 'command', ...line }),
      connector: {
        transport: () =>
          (last = new StdioClientTransport({ ...line, stderr: 'forward', detached: true })),
        explain: async () => {
          const exit = await last?.waitForExit(500);
          // Only an exit of its own says why: one the console caused (closing) does not.
          return exit?.unexpected && last ? exitReason(exit, last.stderrTail) : undefined;
        },
      },
    });
  }
  return all;
}

/** A stdio server's end, for the page: its exit status and the last error line it wrote. */
export function exitReason(
  exit: { code: number | null; signal: NodeJS.Signals | null },
  stderrTail: string,
): string {
  const how = exit.signal ? `was ended by ${exit.signal}` : `exited with code ${String(exit.code)}`;
  const lines = stderrTail
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const said = lines.findLast((l) => /error/i.test(l)) ?? lines.at(-1);
  return `The server ${how}${said ? `: ${said.slice(0, 300)}` : ''}`;
}

/** Says on the terminal too when a server waits for a sign-in, connects or fails. */
function reporter(stderr: Pick<Writable, 'write'>) {
  const said = new Map<string, string>();
  return (event: ConsoleEvent) => {
    if (event.type !== 'server') return;
    const { id, target, state, error, signInUrl } = event.server;
    const line =
      signInUrl !== undefined
        ? `${target} asks you to sign in: follow the link in the console page`
        : state === 'connected'
          ? `connected to ${target}`
          : state === 'failed'
            ? `${target}: ${error ?? 'failed'}`
            : undefined;
    if (line === undefined || said.get(id) === line) return;
    said.set(id, line);
    stderr.write(`toolwire console: ${terminalLine(line)}\n`);
  };
}

/**
 * Where the history goes: the file `--audit` names, else config.json's `audit`, else the default
 * file (moved aside when large), each read back when the console starts. `--no-history` keeps no
 * history of its own, but an audit file config.json names is still written: the person who
 * configured an audit trail expects every run in it.
 */
export function historyFileOf(
  command: Pick<ConsoleCommand, 'audit' | 'history'>,
  configuredAudit: string | undefined,
): HistoryFile | undefined {
  if (!command.history)
    return configuredAudit === undefined
      ? undefined
      : new HistoryFile(configuredAudit, { readBack: false });
  const named = command.audit ?? configuredAudit;
  return named !== undefined
    ? new HistoryFile(named)
    : new HistoryFile(defaultHistoryPath(), { rotate: true });
}

/**
 * Each line a program writes to stdin prints another one-time sign-in link (for scripts and tests;
 * a person gets one from a signed-in page). A terminal is not read: a console run in the
 * background (`&`) that read its terminal would be stopped by the shell (SIGTTIN). Returns the
 * stop.
 */
function newLinksOnStdin(
  io: { stdout: Pick<Writable, 'write'>; stdin?: NodeJS.ReadableStream & { isTTY?: boolean } },
  link: () => string,
): () => void {
  const stdin = io.stdin;
  if (!stdin || stdin.isTTY === true) return () => {};
  const onData = (chunk: Buffer | string): void => {
    for (const char of String(chunk))
      if (char === '\n') io.stdout.write(`toolwire console: open ${link()}\n`);
  };
  stdin.on('data', onData);
  stdin.resume();
  return () => {
    stdin.off('data', onData);
    stdin.pause();
    // A paused pipe would still keep the process alive.
    (stdin as { unref?: () => void }).unref?.();
  };
}

/**
 * Whether the person trusts a server: in config.json (fixed: the page cannot take it back), or
 * as kept in the approvals file (the page's toggle changes it there, for the CLI too).
 */
async function trustOf(target: string, config: CliConfig, approvals: ApprovalsFile) {
  if ((config.trustedServers ?? []).includes(target)) return { trusted: true, fixed: true };
  const trusted = await approvals.isTrusted(target).catch(() => false);
  return { trusted, save: (on: boolean) => approvals.setTrusted(target, on) };
}

/** `toolwire console` */
export async function consoleCommand(
  command: ConsoleCommand,
  io: {
    stdout: Pick<Writable, 'write'>;
    stderr: Pick<Writable, 'write'>;
    signals?: SignalSource;
    /** A line from a program prints another sign-in link (each works once); a terminal is not read. */
    stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  },
): Promise<number> {
  const page = assets();
  // "Always allow" is kept with the CLI's, per server as named: one decision serves both.
  const approvals = new ApprovalsFile();
  const config = readConfig();
  const session = new ConsoleSession({
    historyFile: historyFileOf(command, config.audit),
    model: config.sampling,
    era: command.era,
  });
  const interrupt = interruptOnSigint(io.signals);
  let listener: HttpListener | undefined;
  let stopLinks = (): void => {};
  try {
    const token = randomBytes(32).toString('base64url');
    const guard = new ConsoleGuard(token);
    listener = await serveHttp(consoleHandler(session, guard, page), {
      host: command.host,
      port: command.port,
    });
    guard.listening(command.host, listener.port);
    if (!isLoopbackHost(command.host))
      io.stderr.write(
        `toolwire console: listening on ${command.host}, reachable from the network; only the token protects it\n`,
      );
    // A wildcard address is not one to browse to: the machine's own loopback is.
    const shown = isWildcard(command.host)
      ? '127.0.0.1'
      : command.host.includes(':')
        ? `[${command.host}]`
        : command.host;
    // The token rides in the fragment: the browser never sends it, and the page trades it once.
    const link = (t: string) => `http://${shown}:${listener?.port ?? 0}/#token=${t}`;
    io.stdout.write(`toolwire console: open ${link(token)}\n`);
    io.stdout.write(
      'toolwire console: the link works once; a signed-in page gives links for other browsers\n',
    );
    stopLinks = newLinksOnStdin(io, () => link(guard.issue()));
    // Connect once the page can show how it goes: a protected server's sign-in is a link there.
    const stopReporting = session.subscribe(reporter(io.stderr));
    void Promise.all(
      connectors(command).map(async ({ target, connector }) =>
        session.add(target, connector, {
          approvals: approvals.forServer(target),
          trust: await trustOf(target, config, approvals),
        }),
      ),
    );
    await new Promise<void>((resolve) => {
      if (interrupt.signal.aborted) resolve();
      interrupt.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    stopReporting();
    return EXIT.ok;
  } finally {
    stopLinks();
    interrupt.dispose();
    // The session first: it ends the pages' event streams, which the listener would wait for.
    await session.close();
    await listener?.close();
  }
}

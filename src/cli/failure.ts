/**
 * @module What went wrong, for the person at the terminal and for programs reading
 * `--json-output`: one classification of every failure into a kind, an exit status, a message
 * naming what failed (the URL and errno, the exit code or signal of a stdio server and the end of
 * its stderr, the limit that was hit) and the same facts as JSON fields.
 */
import { LocalError, RpcError } from '../jsonrpc/errors.js';
import { OAuthError } from '../oauthClient/oauthError.js';
import { ConnectionError } from '../transports/http/client/networkError.js';
import { CredentialsFileError } from '../oauthClient/credentialsFile.js';
import type { ExitStatus } from '../stdio.js';
import { UsageError } from './argValues.js';
import { terminalJson, terminalText } from './terminalText.js';

/** The kinds of failure, as `--json-output` names them in `error.kind`. */
export type FailureKind =
  | 'usage'
  | 'unknown-tool'
  | 'unknown-argument'
  | 'connection'
  | 'server-exited'
  | 'protocol'
  | 'timeout'
  | 'interrupted'
  | 'credentials'
  | 'authorization'
  | 'denied';

/** One failure, described. */
export interface Failure {
  kind: FailureKind;
  /** For people; may span lines. Printed through terminalText. */
  message: string;
  exitCode: number;
  /** Further facts for `--json-output` (`code`, `url`, `errno`, `exitCode`, `stderr`, `tools`...). */
  details?: Record<string, unknown>;
}

/** Exit statuses (docs/cli.md: Errors and exit statuses). */
export const EXIT = { ok: 0, toolError: 1, usage: 2, failure: 3, interrupted: 130 } as const;

/** A failure the CLI itself detected, already described. */
export class CliFailure extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
  }
}

/** What the failing command knew about its server, to name it in the message. */
export interface FailureContext {
  /** The command line of a stdio server, as words. */
  command?: readonly string[];
  /** How the stdio server ended, and its last stderr lines (passed through as written). */
  exit?: ExitStatus;
  stderrTail?: string;
  /** The client's message size limit. */
  maxMessageBytes?: number;
  /** The server URL, for a failed authorization: what to log in to. */
  url?: string;
}

function findCause<T>(error: unknown, type: abstract new (...args: never[]) => T): T | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; depth++) {
    if (e instanceof type) return e;
    e = e.cause;
  }
  return undefined;
}

function mib(bytes: number): string {
  return bytes % 1024 ** 2 === 0 ? `${bytes / 1024 ** 2} MiB` : `${bytes} bytes`;
}

/** Words as a shell would need them: quoted when they hold anything but plain characters. */
export function shellWords(words: readonly string[]): string {
  return words
    .map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`))
    .join(' ');
}

/**
 * A stdio server that died. Its stderr was passed through as it was written (just above the
 * message), so the message points there rather than printing it again; `--json-output` carries
 * its last lines (`stderr`).
 */
function serverExited(exit: ExitStatus, context: FailureContext): Failure {
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  const tail = context.stderrTail ?? '';
  const said = tail ? '; its stderr is above' : ' without writing anything on stderr';
  return {
    kind: 'server-exited',
    message: `the server${context.command ? ` (${shellWords(context.command)})` : ''} ${how}${said}`,
    exitCode: EXIT.failure,
    details: { exitCode: exit.code, signal: exit.signal, stderr: tail },
  };
}

/**
 * Library options the client's errors name, as the commands call them (login, logout, list,
 * call and console all take --allow-loopback-http; none lets OAuth reach a private address).
 */
const CLIENT_FLAG_NAMES: ReadonlyArray<readonly [string, string]> = [
  ['allowLoopbackHttp or allowPrivateNetwork allows it', '--allow-loopback-http allows it'],
  [
    'allowPrivateNetwork allows it',
    'no option of toolwire allows one (only loopback addresses, with --allow-loopback-http)',
  ],
  ['allowLoopbackHttp', '--allow-loopback-http'],
];

/** A library error's message in the command line's terms: its flags for the library's options. */
export function inCliTerms(message: string): string {
  let text = message;
  for (const [option, flag] of CLIENT_FLAG_NAMES) text = text.replaceAll(option, flag);
  return text;
}

/** An authorization that failed; one that was never obtained says how to log in. */
function authorizationFailure(error: OAuthError, context: FailureContext): Failure {
  // A command to copy: every word quoted for the shell (a scope comes from the server).
  const scopes = (error.scope ?? '').split(' ').filter((s) => s !== '');
  const loginCommand = (url: string, withScopes: boolean) =>
    shellWords([
      'toolwire',
      'login',
      url,
      ...(withScopes ? scopes.flatMap((s) => ['--scope', s]) : []),
    ]);
  const said = inCliTerms(error.message);
  const login =
    context.url === undefined
      ? said
      : error.reason === 'login_required'
        ? `${said}: run ${loginCommand(context.url, false)}`
        : error.reason === 'insufficient_scope'
          ? `${said}: run ${loginCommand(context.url, true)}`
          : said;
  return {
    kind: 'authorization',
    message: login,
    exitCode: EXIT.failure,
    details: {
      reason: error.reason,
      ...(error.issuer !== undefined ? { issuer: error.issuer } : {}),
      ...(error.scope !== undefined ? { scope: error.scope } : {}),
      ...(context.url !== undefined ? { url: context.url } : {}),
    },
  };
}

/** Classifies anything a command threw. */
export function describeFailure(error: unknown, context: FailureContext = {}): Failure {
  if (error instanceof CliFailure) return error.failure;
  if (error instanceof UsageError)
    return { kind: 'usage', message: error.message, exitCode: EXIT.usage };
  if (error instanceof RpcError)
    return {
      kind: 'protocol',
      message: `Error ${error.code}: ${error.message}`,
      exitCode: EXIT.failure,
      details: { code: error.code, ...(error.data !== undefined ? { data: error.data } : {}) },
    };
  const credentials = findCause(error, CredentialsFileError);
  if (credentials)
    return {
      kind: 'credentials',
      message: credentials.message,
      exitCode: EXIT.failure,
      details: { file: credentials.path, problem: credentials.problem },
    };
  const oauth = findCause(error, OAuthError);
  if (oauth) return authorizationFailure(oauth, context);
  // A stdio server that died explains the closed connection better than "Connection closed".
  if (context.exit?.unexpected) return serverExited(context.exit, context);
  const connection = findCause(error, ConnectionError);
  const message = error instanceof Error ? error.message : String(error);
  if (connection)
    return {
      kind: 'connection',
      message,
      exitCode: EXIT.failure,
      details: { url: connection.url, ...(connection.errno ? { errno: connection.errno } : {}) },
    };
  if (error instanceof LocalError) {
    const details = { code: error.code };
    switch (error.code) {
      case 'timeout':
        return { kind: 'timeout', message, exitCode: EXIT.failure, details };
      case 'message-too-large': {
        const limit = context.maxMessageBytes ?? 4 * 1024 * 1024;
        return {
          kind: 'protocol',
          message: `${message} (the limit is ${mib(limit)}: raise it with --max-message-bytes, e.g. --max-message-bytes 64MiB)`,
          exitCode: EXIT.failure,
          details: { ...details, limit },
        };
      }
      case 'transport':
      case 'closed':
      case 'send-failed':
      case 'not-connected':
        return { kind: 'connection', message, exitCode: EXIT.failure, details };
      case 'authorization':
        // Not an OAuthError (those are described above): another authorization's refusal.
        return { kind: 'authorization', message, exitCode: EXIT.failure, details };
      case 'denied':
        // The person at the terminal said no (or a URL was refused): nothing ran.
        return { kind: 'denied', message, exitCode: EXIT.failure, details };
      case 'aborted':
      case 'capability-missing':
      case 'invalid-output':
      case 'invalid-response':
      case 'invalid-tool':
      case 'pagination-loop':
      case 'unsupported-version':
      case 'unsupported-schema':
        return { kind: 'protocol', message, exitCode: EXIT.failure, details };
    }
  }
  return { kind: 'protocol', message, exitCode: EXIT.failure };
}

/** The kinds of a usage mistake: their messages start with the command (`call: ...`). */
const USAGE_KINDS = new Set<FailureKind>(['usage', 'unknown-tool', 'unknown-argument']);

/** Where a failure is printed. */
export interface FailureOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/**
 * Prints a failure: the message on stderr (prefixed with `toolwire:` unless it names its command
 * already), and with `--json-output` also `{"error": {...}}` on stdout.
 */
export function printFailure(failure: Failure, out: FailureOutput, jsonOutput: boolean): number {
  const text = terminalText(failure.message);
  // Usage messages start with the command they are about (`call: ...`).
  const prefixed = USAGE_KINDS.has(failure.kind) ? text : `toolwire: ${text}`;
  out.stderr.write(`${prefixed}\n`);
  if (jsonOutput)
    out.stdout.write(
      terminalJson({
        error: { kind: failure.kind, message: failure.message, ...failure.details },
      }) + '\n',
    );
  return failure.exitCode;
}

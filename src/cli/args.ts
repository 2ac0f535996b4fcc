/**
 * @module Parsing the command line into one command object. Pure: no I/O, so every form and
 * every mistake is unit-tested. Uses Node's built-in `util.parseArgs`; its errors are reworded
 * (argValues.ts) and the help texts live in usage.ts.
 */
import { isLoopbackHost } from '../transports/http/shared/loopback.js';
import {
  argPairs,
  eraValue,
  headersOf,
  jsonArguments,
  parseByteSize,
  parseOwn,
  UsageError,
  type CliEra,
} from './argValues.js';
import { AUTH_FLAGS, AUTH_OPTIONS, serveAuth, type ServeAuth } from './authArgs.js';
import { suggestion } from './closest.js';
import { parseLogin, parseLogout, type LoginCommand, type LogoutCommand } from './loginArgs.js';
import { parseApprovals, type ApprovalsCommand } from './approvalsArgs.js';
import { parseConsole, type ConsoleCommand } from './consoleArgs.js';
import { HELP_TOPICS, type HelpTopic } from './usage.js';

export { UsageError } from './argValues.js';
export type { LoginClient, LoginCommand, LogoutCommand } from './loginArgs.js';

/** How `serve` exposes the server. */
export type ServeMode =
  | { kind: 'stdio' }
  | {
      kind: 'http';
      port: number;
      host: string;
      stateless: boolean;
      allowedHosts: string[] | undefined;
      allowedOrigins: string[] | undefined;
      /**
       * `--allow-unauthenticated-remote`: serve on a non-loopback `--host` without an
       * `--allowed-host` list (refused otherwise: `serve` has no authentication).
       */
      allowUnauthenticatedRemote: boolean;
      /** Shared state for several instances (`--redis`). */
      redis: { url: string; keyPrefix: string | undefined } | undefined;
      /** OAuth access tokens required (`--auth-*`, see authArgs.ts). */
      auth: ServeAuth | undefined;
    };

/** `toolwire serve <module>` */
export interface ServeCommand {
  kind: 'serve';
  module: string;
  exportName: string | undefined;
  mode: ServeMode;
  /** `--watch`: restart the server when the module or a file it imports changes. */
  watch: boolean;
}

/** Where the server to talk to is: a command to spawn (stdio) or a URL (HTTP). */
export type ServerTarget =
  | { kind: 'command'; command: string; args: string[] }
  | {
      kind: 'url';
      url: string;
      headers: Record<string, string>;
      /** `--allow-loopback-http`: OAuth endpoints over http on loopback hosts (development). */
      allowLoopbackHttp: boolean;
    };

export type { CliEra } from './argValues.js';

/** `toolwire list <url> | -- <command> [args...]` */
export interface ListCommand {
  kind: 'list';
  target: ServerTarget;
  jsonOutput: boolean;
  /** `--era`: `auto` (default: probe, fall back), `legacy` (the initialize handshake) or `modern` (2026-07-28). */
  era: CliEra;
  /** `--audit <file>`: append the audit trail (JSON lines) to this file. */
  audit: string | undefined;
  /** `--max-message-bytes`: the client's message size limit (default: the transport's 4 MiB). */
  maxMessageBytes: number | undefined;
}

/** Which calls are confirmed. */
export type ConfirmMode = 'always' | 'unless-read-only' | 'never';

/** The modes, as `--confirm` takes them. */
export const CONFIRM_MODES: readonly ConfirmMode[] = ['always', 'unless-read-only', 'never'];

/** `toolwire call <tool> [--arg k=v ...] [--json '{...}'] <url> | -- <command> [args...]` */
export interface CallCommand {
  kind: 'call';
  tool: string;
  target: ServerTarget;
  /** Raw `key=value` pairs; values are typed later from the tool's input schema. */
  pairs: Array<[string, string]>;
  json: Record<string, unknown> | undefined;
  jsonOutput: boolean;
  /** `--era`: see {@link ListCommand.era}. */
  era: CliEra;
  timeoutMs: number | undefined;
  /** `--task`: run as a task when the tool allows it (tools that require it always are). */
  task: boolean;
  maxMessageBytes: number | undefined;
  /** `--confirm`: which calls are confirmed (default `unless-read-only`). */
  confirm: ConfirmMode;
  /** `--yes`: allow the call without asking. */
  yes: boolean;
  /** `--trust-annotations`: trust this server's annotations for this call (read-only tools unasked). */
  trustAnnotations: boolean;
  audit: string | undefined;
}

/** `toolwire help [command]`, `toolwire <command> --help`, or no arguments. */
export interface HelpCommand {
  kind: 'help';
  topic: HelpTopic | undefined;
}

/** `toolwire --version` */
export interface VersionCommand {
  kind: 'version';
}

/** Any parsed command. */
export type Command =
  | ServeCommand
  | ListCommand
  | CallCommand
  | LoginCommand
  | LogoutCommand
  | ApprovalsCommand
  | ConsoleCommand
  | HelpCommand
  | VersionCommand;

function splitAtDoubleDash(argv: readonly string[]): {
  own: string[];
  target: string[] | undefined;
} {
  const i = argv.indexOf('--');
  return i < 0
    ? { own: [...argv], target: undefined }
    : { own: argv.slice(0, i), target: argv.slice(i + 1) };
}

function targetOf(
  command: string,
  parts: {
    target: string[] | undefined;
    url: string | undefined;
    headers: Record<string, string>;
    allowLoopbackHttp: boolean;
  },
): ServerTarget {
  if (parts.url !== undefined && parts.target !== undefined) {
    throw new UsageError(`${command}: give either a URL or a command after "--", not both`);
  }
  if (parts.url !== undefined) {
    if (!/^https?:\/\//i.test(parts.url))
      throw new UsageError(
        `${command}: ${JSON.stringify(parts.url)} is not an http(s) URL (for a stdio server, put its command after "--")`,
      );
    return {
      kind: 'url',
      url: parts.url,
      headers: parts.headers,
      allowLoopbackHttp: parts.allowLoopbackHttp,
    };
  }
  const target = parts.target;
  if (!target || target.length === 0 || target[0] === '') {
    throw new UsageError(
      `${command}: give a server URL, or a command after "--" (e.g. toolwire ${command} -- node server.js)`,
    );
  }
  if (Object.keys(parts.headers).length > 0)
    throw new UsageError(`${command}: --header applies to URLs only`);
  if (parts.allowLoopbackHttp)
    throw new UsageError(`${command}: --allow-loopback-http applies to URLs only`);
  return { kind: 'command', command: target[0] as string, args: target.slice(1) };
}

function serveMode(values: Record<string, unknown>): ServeMode {
  const rawPort = values['http'] as string | undefined;
  if (rawPort === undefined) {
    for (const flag of [
      'host',
      'stateless',
      'allowed-host',
      'allowed-origin',
      'redis',
      'redis-prefix',
      'allow-unauthenticated-remote',
      ...AUTH_FLAGS,
    ]) {
      if (values[flag] !== undefined)
        throw new UsageError(`serve: --${flag} applies to --http only`);
    }
    return { kind: 'stdio' };
  }
  const port = Number(rawPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError('serve: --http needs a port number (0 picks a free one)');
  const redisUrl = values['redis'] as string | undefined;
  const keyPrefix = values['redis-prefix'] as string | undefined;
  if (redisUrl !== undefined && !/^rediss?:\/\/[^\s]+$/i.test(redisUrl))
    throw new UsageError(`serve: --redis needs a redis:// URL, not ${JSON.stringify(redisUrl)}`);
  if (keyPrefix !== undefined && redisUrl === undefined)
    throw new UsageError('serve: --redis-prefix applies to --redis only');
  const host = (values['host'] as string | undefined) ?? '127.0.0.1';
  const allowedHosts = values['allowed-host'] as string[] | undefined;
  const allowUnauthenticatedRemote = values['allow-unauthenticated-remote'] === true;
  const auth = serveAuth(values);
  if (!isLoopbackHost(host) && allowedHosts === undefined && !allowUnauthenticatedRemote)
    throw new UsageError(auth ? authenticatedHostMessage(host) : exposedHostMessage(host));
  return {
    kind: 'http',
    port,
    host,
    stateless: values['stateless'] === true,
    allowedHosts,
    allowedOrigins: values['allowed-origin'] as string[] | undefined,
    allowUnauthenticatedRemote,
    redis: redisUrl === undefined ? undefined : { url: redisUrl, keyPrefix },
    auth,
  };
}

/** Why a non-loopback `--host` needs `--allowed-host` even with authentication. */
function authenticatedHostMessage(host: string): string {
  return `serve: --host ${host} is not a loopback address: name the host names clients use with --allowed-host <name> (repeatable; requests naming any other Host are refused, against DNS rebinding)`;
}

/**
 * Why `serve --host` with a non-loopback address is refused: `serve` has no authentication, so
 * the Host allow-list is the one thing the operator must decide on (e.g. the name a proxy that
 * authenticates forwards), or insist on serving anyone who can reach the address.
 */
function exposedHostMessage(host: string): string {
  return `serve: --host ${host} is not a loopback address, and toolwire serve has no authentication: anyone who can reach it could call every tool. Name the host names clients use with --allowed-host <name> (repeatable; e.g. behind a proxy that authenticates), or pass --allow-unauthenticated-remote to serve it anyway`;
}

const CLIENT_OPTIONS = {
  'json-output': { type: 'boolean' },
  era: { type: 'string' },
  audit: { type: 'string' },
  header: { type: 'string', multiple: true },
  'max-message-bytes': { type: 'string' },
  'allow-loopback-http': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const SERVE_OPTIONS = {
  export: { type: 'string' },
  http: { type: 'string' },
  host: { type: 'string' },
  stateless: { type: 'boolean' },
  'allowed-host': { type: 'string', multiple: true },
  'allowed-origin': { type: 'string', multiple: true },
  'allow-unauthenticated-remote': { type: 'boolean' },
  redis: { type: 'string' },
  'redis-prefix': { type: 'string' },
  ...AUTH_OPTIONS,
  watch: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const CALL_OPTIONS = {
  ...CLIENT_OPTIONS,
  arg: { type: 'string', multiple: true },
  json: { type: 'string' },
  timeout: { type: 'string' },
  task: { type: 'boolean' },
  confirm: { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  'trust-annotations': { type: 'boolean' },
} as const;

const isHelpFlag = (arg: string): boolean => arg === '--help' || arg === '-h';

/** True when the command line asks for JSON output (checked even when it does not parse). */
export function wantsJsonOutput(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json-output');
}

/**
 * `--era`, checked. Default `auto` (`call --task` too: a 2026-07-28 server runs it through the
 * tasks extension).
 */
function eraOf(values: Record<string, unknown>, command: string): CliEra {
  return eraValue(values['era'], command, 'auto');
}

function maxMessageBytesOf(values: Record<string, unknown>, command: string): number | undefined {
  const raw = values['max-message-bytes'] as string | undefined;
  return raw === undefined ? undefined : parseByteSize(raw, '--max-message-bytes', command);
}

function parseServe(own: string[]): ServeCommand {
  const parsed = parseOwn(own, SERVE_OPTIONS, 'serve');
  const module = parsed.positionals[0];
  if (!module || parsed.positionals.length > 1)
    throw new UsageError('serve: give exactly one module path (see toolwire serve --help)');
  return {
    kind: 'serve',
    module,
    exportName: parsed.values['export'],
    mode: serveMode(parsed.values),
    watch: parsed.values['watch'] === true,
  };
}

function parseList(own: string[], target: string[] | undefined): ListCommand {
  const parsed = parseOwn(own, CLIENT_OPTIONS, 'list');
  if (parsed.positionals.length > 1)
    throw new UsageError(`list: unexpected argument ${JSON.stringify(parsed.positionals[1])}`);
  const headers = headersOf(parsed.values['header'], 'list');
  return {
    kind: 'list',
    target: targetOf('list', {
      target,
      url: parsed.positionals[0],
      headers,
      allowLoopbackHttp: parsed.values['allow-loopback-http'] === true,
    }),
    jsonOutput: parsed.values['json-output'] === true,
    era: eraOf(parsed.values, 'list'),
    maxMessageBytes: maxMessageBytesOf(parsed.values, 'list'),
    audit: auditOf(parsed.values['audit'], 'list'),
  };
}

function auditOf(value: string | undefined, command: string): string | undefined {
  if (value === '') throw new UsageError(`${command}: --audit needs a file name`);
  return value;
}

function confirmOf(value: string | undefined): ConfirmMode {
  if (value === undefined) return 'unless-read-only';
  if (!(CONFIRM_MODES as readonly string[]).includes(value))
    throw new UsageError(
      `call: --confirm takes ${CONFIRM_MODES.join(', ')} (got ${JSON.stringify(value)})`,
    );
  return value as ConfirmMode;
}

function parseCall(own: string[], target: string[] | undefined): CallCommand {
  const parsed = parseOwn(own, CALL_OPTIONS, 'call');
  const [tool, url, extra] = parsed.positionals;
  if (!tool || extra !== undefined)
    throw new UsageError(
      'call: give exactly one tool name, and a URL or a command after "--" (see toolwire call --help)',
    );
  const pairs = argPairs(parsed.values['arg']);
  const rawTimeout = parsed.values['timeout'];
  const timeoutMs = rawTimeout === undefined ? undefined : Number(rawTimeout);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0))
    throw new UsageError('call: --timeout must be a positive number of milliseconds');
  const headers = headersOf(parsed.values['header'], 'call');
  return {
    kind: 'call',
    tool,
    target: targetOf('call', {
      target,
      url,
      headers,
      allowLoopbackHttp: parsed.values['allow-loopback-http'] === true,
    }),
    pairs,
    json: jsonArguments(parsed.values['json']),
    jsonOutput: parsed.values['json-output'] === true,
    era: eraOf(parsed.values, 'call'),
    timeoutMs,
    task: parsed.values['task'] === true,
    maxMessageBytes: maxMessageBytesOf(parsed.values, 'call'),
    confirm: confirmOf(parsed.values['confirm']),
    trustAnnotations: parsed.values['trust-annotations'] === true,
    yes: parsed.values['yes'] === true,
    audit: auditOf(parsed.values['audit'], 'call'),
  };
}

/** Parses `process.argv.slice(2)`. */
export function parseCommand(argv: readonly string[]): Command {
  const [name, ...rest] = argv;
  if (name === undefined || isHelpFlag(name)) return { kind: 'help', topic: undefined };
  if (name === '--version' || name === '-v') return { kind: 'version' };
  if (name === 'help') {
    const topic = rest[0];
    if (topic === undefined) return { kind: 'help', topic: undefined };
    if (!HELP_TOPICS.includes(topic as HelpTopic))
      throw new UsageError(
        `help: no command ${JSON.stringify(topic)} (commands: ${HELP_TOPICS.join(', ')})`,
      );
    return { kind: 'help', topic: topic as HelpTopic };
  }
  const { own, target } = splitAtDoubleDash(rest);
  // Help wins over any other mistake on the line: `toolwire call --help` needs no tool name.
  if (HELP_TOPICS.includes(name as HelpTopic) && own.some(isHelpFlag))
    return { kind: 'help', topic: name as HelpTopic };
  switch (name) {
    case 'serve':
      return parseServe(own);
    case 'list':
      return parseList(own, target);
    case 'call':
      return parseCall(own, target);
    case 'console':
      return parseConsole(own, target);
    case 'approvals':
      // The server key of a command target starts with "--": the words are taken as they are.
      return parseApprovals(rest);
    case 'login':
    case 'logout':
      if (target !== undefined)
        throw new UsageError(`${name}: takes a server URL, not a command after "--"`);
      return name === 'login' ? parseLogin(own) : parseLogout(own);
    default: {
      const near = suggestion(name, HELP_TOPICS);
      const hint = near ? ` Did you mean "${near}"?` : '';
      throw new UsageError(
        `Unknown command ${JSON.stringify(name)}.${hint} Commands: ${HELP_TOPICS.join(', ')} (see toolwire help).`,
      );
    }
  }
}

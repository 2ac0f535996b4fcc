/**
 * @module Parsing the command line into one command object. Pure: no I/O, so every form and
 * every mistake is unit-tested. Uses Node's built-in `util.parseArgs`.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

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
      /** Shared state for several instances (`--redis`). */
      redis: { url: string; keyPrefix: string | undefined } | undefined;
    };

/** `toolwire serve <module>` */
export interface ServeCommand {
  kind: 'serve';
  module: string;
  exportName: string | undefined;
  mode: ServeMode;
}

/** Where the server to talk to is: a command to spawn (stdio) or a URL (HTTP). */
export type ServerTarget =
  | { kind: 'command'; command: string; args: string[] }
  | { kind: 'url'; url: string; headers: Record<string, string> };

/** `toolwire list <url> | -- <command> [args...]` */
export interface ListCommand {
  kind: 'list';
  target: ServerTarget;
  jsonOutput: boolean;
}

/** `toolwire call <tool> [--arg k=v ...] [--json '{...}'] <url> | -- <command> [args...]` */
export interface CallCommand {
  kind: 'call';
  tool: string;
  target: ServerTarget;
  /** Raw `key=value` pairs; values are typed later from the tool's input schema. */
  pairs: Array<[string, string]>;
  json: Record<string, unknown> | undefined;
  jsonOutput: boolean;
  timeoutMs: number | undefined;
  /** `--task`: run as a task when the tool allows it (tools that require it always are). */
  task: boolean;
}

/** `toolwire help` or no arguments. */
export interface HelpCommand {
  kind: 'help';
}

/** Any parsed command. */
export type Command = ServeCommand | ListCommand | CallCommand | HelpCommand;

/** A usage mistake; the message says what is wrong. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Usage text. */
export const USAGE = `toolwire: MCP tools from the command line

  toolwire serve <module> [--export <name>]
      Serve the McpServer a module exports (default export, or --export name) over stdio.
  toolwire serve <module> --http <port> [--host <host>] [--stateless]
                 [--allowed-host <name> ...] [--allowed-origin <origin> ...]
                       [--redis <redis://host:port> [--redis-prefix <prefix>]]
      Serve it over Streamable HTTP at /mcp (and the 2024-11-05 HTTP+SSE transport at /sse).
      The host defaults to 127.0.0.1; port 0 picks a free one. With --redis, tasks, sessions
      and SSE events live in Redis, so several instances behind a load balancer serve the same
      clients (keys start with the prefix, default "toolwire:").

  toolwire list [--json-output] [--header 'Name: value' ...] <url>
  toolwire list [--json-output] -- <command> [args...]
      List the tools of a server at a URL, or of a stdio server started by the command.

    toolwire call <tool> [--arg key=value ...] [--json '<object>'] [--timeout <ms>] [--task]
                [--json-output] [--header 'Name: value' ...] <url> | -- <command> [args...]
      Call one tool. --arg values are typed from the tool's input schema; --json gives all
      arguments at once (--arg entries override it). A tool that requires a task runs as one
      (its status is shown as it changes); --task asks for one when the tool allows it.

Exit status: 0 success, 1 the tool reported an error, 2 usage error, 3 connection or protocol error.`;

function splitAtDoubleDash(argv: readonly string[]): {
  own: string[];
  target: string[] | undefined;
} {
  const i = argv.indexOf('--');
  return i < 0
    ? { own: [...argv], target: undefined }
    : { own: argv.slice(0, i), target: argv.slice(i + 1) };
}

function headersOf(
  entries: readonly string[] | undefined,
  command: string,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const entry of entries ?? []) {
    const colon = entry.indexOf(':');
    if (colon <= 0)
      throw new UsageError(
        `${command}: --header needs "Name: value" (got ${JSON.stringify(entry)})`,
      );
    headers[entry.slice(0, colon).trim().toLowerCase()] = entry.slice(colon + 1).trim();
  }
  return headers;
}

function targetOf(
  command: string,
  parts: { target: string[] | undefined; url: string | undefined; headers: Record<string, string> },
): ServerTarget {
  if (parts.url !== undefined && parts.target !== undefined) {
    throw new UsageError(`${command}: give either a URL or a command after "--", not both`);
  }
  if (parts.url !== undefined) {
    if (!/^https?:\/\//i.test(parts.url))
      throw new UsageError(`${command}: ${JSON.stringify(parts.url)} is not an http(s) URL`);
    return { kind: 'url', url: parts.url, headers: parts.headers };
  }
  const target = parts.target;
  if (!target || target.length === 0 || target[0] === '') {
    throw new UsageError(
      `${command}: give a server URL, or a command after "--" (e.g. toolwire ${command} -- node server.js)`,
    );
  }
  if (Object.keys(parts.headers).length > 0)
    throw new UsageError(`${command}: --header applies to URLs only`);
  return { kind: 'command', command: target[0] as string, args: target.slice(1) };
}

function parseOwn(
  own: string[],
  options: NonNullable<ParseArgsConfig['options']>,
  command: string,
) {
  try {
    return parseArgs({ args: own, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${command}: ${(error as Error).message}`);
  }
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
  return {
    kind: 'http',
    port,
    host: (values['host'] as string | undefined) ?? '127.0.0.1',
    stateless: values['stateless'] === true,
    allowedHosts: values['allowed-host'] as string[] | undefined,
    allowedOrigins: values['allowed-origin'] as string[] | undefined,
    redis: redisUrl === undefined ? undefined : { url: redisUrl, keyPrefix },
  };
}

const CLIENT_OPTIONS = {
  'json-output': { type: 'boolean' },
  header: { type: 'string', multiple: true },
} as const;

/** Parses `process.argv.slice(2)`. */
export function parseCommand(argv: readonly string[]): Command {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h')
    return { kind: 'help' };
  const { own, target } = splitAtDoubleDash(rest);
  switch (name) {
    case 'serve': {
      const parsed = parseOwn(
        own,
        {
          export: { type: 'string' },
          http: { type: 'string' },
          host: { type: 'string' },
          stateless: { type: 'boolean' },
          'allowed-host': { type: 'string', multiple: true },
          'allowed-origin': { type: 'string', multiple: true },
          redis: { type: 'string' },
          'redis-prefix': { type: 'string' },
        },
        'serve',
      );
      const module = parsed.positionals[0];
      if (!module || parsed.positionals.length > 1)
        throw new UsageError('serve: give exactly one module path');
      return {
        kind: 'serve',
        module,
        exportName: parsed.values['export'] as string | undefined,
        mode: serveMode(parsed.values),
      };
    }
    case 'list': {
      const parsed = parseOwn(own, CLIENT_OPTIONS, 'list');
      if (parsed.positionals.length > 1)
        throw new UsageError(`list: unexpected argument ${parsed.positionals[1]}`);
      const headers = headersOf(parsed.values['header'] as string[] | undefined, 'list');
      return {
        kind: 'list',
        target: targetOf('list', { target, url: parsed.positionals[0], headers }),
        jsonOutput: parsed.values['json-output'] === true,
      };
    }
    case 'call': {
      const parsed = parseOwn(
        own,
        {
          ...CLIENT_OPTIONS,
          arg: { type: 'string', multiple: true },
          json: { type: 'string' },
          timeout: { type: 'string' },
          task: { type: 'boolean' },
        },
        'call',
      );
      const [tool, url, extra] = parsed.positionals;
      if (!tool || extra !== undefined)
        throw new UsageError(
          'call: give exactly one tool name (and a URL, or a command after "--")',
        );
      const pairs = ((parsed.values['arg'] as string[] | undefined) ?? []).map(
        (entry): [string, string] => {
          const eq = entry.indexOf('=');
          if (eq <= 0)
            throw new UsageError(`call: --arg needs key=value (got ${JSON.stringify(entry)})`);
          return [entry.slice(0, eq), entry.slice(eq + 1)];
        },
      );
      let json: Record<string, unknown> | undefined;
      const rawJson = parsed.values['json'] as string | undefined;
      if (rawJson !== undefined) {
        let value: unknown;
        try {
          value = JSON.parse(rawJson);
        } catch {
          throw new UsageError('call: --json is not valid JSON');
        }
        if (typeof value !== 'object' || value === null || Array.isArray(value))
          throw new UsageError('call: --json must be a JSON object');
        json = value as Record<string, unknown>;
      }
      const rawTimeout = parsed.values['timeout'] as string | undefined;
      const timeoutMs = rawTimeout === undefined ? undefined : Number(rawTimeout);
      if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0))
        throw new UsageError('call: --timeout must be a positive number of milliseconds');
      const headers = headersOf(parsed.values['header'] as string[] | undefined, 'call');
      return {
        kind: 'call',
        tool,
        target: targetOf('call', { target, url, headers }),
        pairs,
        json,
        jsonOutput: parsed.values['json-output'] === true,
        timeoutMs,
        task: parsed.values['task'] === true,
      };
    }
    default:
      throw new UsageError(`Unknown command ${JSON.stringify(name)}. Run "toolwire help".`);
  }
}

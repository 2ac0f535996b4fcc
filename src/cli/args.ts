/**
 * @module Parsing the command line into one command object. Pure: no I/O, so every form and
 * every mistake is unit-tested. Uses Node's built-in `util.parseArgs`.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** `toolwire serve <module>` */
export interface ServeCommand {
  kind: 'serve';
  module: string;
  exportName: string | undefined;
}

/** Where the server to talk to comes from. */
export interface ServerTarget {
  command: string;
  args: string[];
}

/** `toolwire list -- <command> [args...]` */
export interface ListCommand {
  kind: 'list';
  target: ServerTarget;
  jsonOutput: boolean;
}

/** `toolwire call <tool> [--arg k=v ...] [--json '{...}'] -- <command> [args...]` */
export interface CallCommand {
  kind: 'call';
  tool: string;
  target: ServerTarget;
  /** Raw `key=value` pairs; values are typed later from the tool's input schema. */
  pairs: Array<[string, string]>;
  json: Record<string, unknown> | undefined;
  jsonOutput: boolean;
  timeoutMs: number | undefined;
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

  toolwire list [--json-output] -- <command> [args...]
      Start a stdio server and list its tools.

  toolwire call <tool> [--arg key=value ...] [--json '<object>'] [--timeout <ms>]
                [--json-output] -- <command> [args...]
      Start a stdio server and call one tool. --arg values are typed from the tool's
      input schema; --json gives all arguments at once (--arg entries override it).

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

function targetOf(target: string[] | undefined, command: string): ServerTarget {
  if (!target || target.length === 0 || target[0] === '') {
    throw new UsageError(
      `${command}: give the server command after "--", e.g. toolwire ${command} -- node server.js`,
    );
  }
  return { command: target[0] as string, args: target.slice(1) };
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

/** Parses `process.argv.slice(2)`. */
export function parseCommand(argv: readonly string[]): Command {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h')
    return { kind: 'help' };
  const { own, target } = splitAtDoubleDash(rest);
  switch (name) {
    case 'serve': {
      const parsed = parseOwn(own, { export: { type: 'string' } }, 'serve');
      const module = parsed.positionals[0];
      if (!module || parsed.positionals.length > 1)
        throw new UsageError('serve: give exactly one module path');
      return { kind: 'serve', module, exportName: parsed.values['export'] as string | undefined };
    }
    case 'list': {
      const parsed = parseOwn(own, { 'json-output': { type: 'boolean' } }, 'list');
      if (parsed.positionals.length > 0)
        throw new UsageError(`list: unexpected argument ${parsed.positionals[0]}`);
      return {
        kind: 'list',
        target: targetOf(target, 'list'),
        jsonOutput: parsed.values['json-output'] === true,
      };
    }
    case 'call': {
      const parsed = parseOwn(
        own,
        {
          arg: { type: 'string', multiple: true },
          json: { type: 'string' },
          timeout: { type: 'string' },
          'json-output': { type: 'boolean' },
        },
        'call',
      );
      const tool = parsed.positionals[0];
      if (!tool || parsed.positionals.length > 1)
        throw new UsageError('call: give exactly one tool name');
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
      return {
        kind: 'call',
        tool,
        target: targetOf(target, 'call'),
        pairs,
        json,
        jsonOutput: parsed.values['json-output'] === true,
        timeoutMs,
      };
    }
    default:
      throw new UsageError(`Unknown command ${JSON.stringify(name)}. Run "toolwire help".`);
  }
}

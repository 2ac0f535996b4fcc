/**
 * @module The words of `toolwire console`: server URLs and/or a command after `--`, where the
 * page listens, and where the history goes. Apart from consoleCommand.ts so that parsing the
 * command line does not load the console.
 */
import { eraValue, parseOwn, UsageError, type CliEra } from './argValues.js';

/** `toolwire console ...` */
export interface ConsoleCommand {
  kind: 'console';
  urls: string[];
  command: { command: string; args: string[] } | undefined;
  host: string;
  port: number;
  audit: string | undefined;
  /** Keep the history in a file (false: `--no-history`). */
  history: boolean;
  allowLoopbackHttp: boolean;
  /** `--era`: how each server's session is opened (default `auto`). */
  era: CliEra;
}

const OPTIONS = {
  host: { type: 'string' },
  port: { type: 'string' },
  audit: { type: 'string' },
  'no-history': { type: 'boolean' },
  'allow-loopback-http': { type: 'boolean' },
  era: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Parses `console` (own words, and the command after `--`). */
export function parseConsole(own: string[], target: string[] | undefined): ConsoleCommand {
  const { values, positionals } = parseOwn(own, OPTIONS, 'console');
  if (values['no-history'] === true && values.audit !== undefined)
    throw new UsageError('console: --audit names the history file; --no-history keeps none');
  for (const url of positionals)
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url))
      throw new UsageError(`console: ${JSON.stringify(url)} is not an http(s) URL`);
  if (positionals.length === 0 && (!target || target.length === 0 || target[0] === ''))
    throw new UsageError('console: give server URLs, and/or a command after "--"');
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError('console: --port needs a port number (0 picks a free one)');
  return {
    kind: 'console',
    urls: positionals,
    command: target?.[0] ? { command: target[0], args: target.slice(1) } : undefined,
    host: values.host ?? '127.0.0.1',
    port,
    audit: values.audit,
    history: values['no-history'] !== true,
    allowLoopbackHttp: values['allow-loopback-http'] === true,
    era: eraValue(values.era, 'console', 'auto'),
  };
}

/**
 * @module The CLI's own settings file, `config.json` beside the credentials file
 * (`$XDG_CONFIG_HOME/toolwire/`): defaults the command line can override: `audit`, the file
 * `list`, `call` and `console` append their audit trail to when `--audit` is not given,
 * `sampling`, the model command that answers a server's sampling requests during `call`, and
 * `trustedServers`, the servers whose annotations the person trusts.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { defaultCredentialsPath } from '../oauthClient/credentialsFile.js';
import { UsageError } from './argValues.js';
import { identityOf, serverIdentity } from './serverIdentity.js';

/** A model command: run without a shell, the request on stdin, the reply on stdout. */
export interface SamplingConfig {
  command: string;
  args: string[];
  /** How long it may run, in milliseconds (default two minutes). */
  timeoutMs?: number;
}

/** The settings. */
export interface CliConfig {
  /** Default of `--audit`. */
  audit?: string;
  /** The model command of sampling requests; none: they are shown and refused. */
  sampling?: SamplingConfig;
  /** The identities (serverIdentity.ts) of the servers whose annotations the person trusts. */
  trustedServers?: string[];
}

/**
 * The `trustedServers` setting: each a URL, an identity as `toolwire approvals list` prints it,
 * or `{"command": ..., "args": [...]}` (files named relative to the settings file's folder).
 */
function trustedOf(value: unknown, path: string): string[] | undefined {
  if (value === undefined) return undefined;
  const wrong = `${path}: "trustedServers" must be a list of URLs, servers as "toolwire approvals list" shows them, or {"command": "...", "args": [...]}`;
  if (!Array.isArray(value)) throw new UsageError(wrong);
  return value.map((entry: unknown) => {
    if (typeof entry === 'string' && entry !== '') return identityOf([entry]);
    const { command, args } = (entry ?? {}) as Record<string, unknown>;
    if (
      typeof command !== 'string' ||
      command === '' ||
      !(args === undefined || (Array.isArray(args) && args.every((a) => typeof a === 'string')))
    )
      throw new UsageError(wrong);
    return serverIdentity({ kind: 'command', command, args: args ?? [] }, dirname(path));
  });
}

/** The longest a Node timer waits (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The `sampling` setting, checked. */
function samplingOf(value: unknown, path: string): SamplingConfig | undefined {
  if (value === undefined) return undefined;
  const { command, args, timeoutMs } = (value ?? {}) as Record<string, unknown>;
  if (typeof value !== 'object' || value === null || typeof command !== 'string' || command === '')
    throw new UsageError(`${path}: "sampling" must be {"command": "...", "args": [...]}`);
  if (args !== undefined && !(Array.isArray(args) && args.every((a) => typeof a === 'string')))
    throw new UsageError(`${path}: "sampling.args" must be a list of strings`);
  // Past 2^31 - 1 a Node timer fires at once: the longest a timer can wait is the limit.
  if (
    timeoutMs !== undefined &&
    !(
      typeof timeoutMs === 'number' &&
      Number.isInteger(timeoutMs) &&
      timeoutMs > 0 &&
      timeoutMs <= MAX_TIMER_MS
    )
  )
    throw new UsageError(
      `${path}: "sampling.timeoutMs" must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS}`,
    );
  return {
    command,
    args: args ?? [],
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
}

/** Where the settings are read from. */
export function configPath(): string {
  return join(dirname(defaultCredentialsPath()), 'config.json');
}

/** Reads the settings; none when the file does not exist; a file it cannot use is a usage error. */
export function readConfig(path: string = configPath()): CliConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(
      `${path} is not JSON (it holds toolwire's settings, e.g. {"audit": "..."})`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new UsageError(`${path} must hold a JSON object`);
  const settings = parsed as Record<string, unknown>;
  const audit = settings['audit'];
  if (audit !== undefined && (typeof audit !== 'string' || audit === ''))
    throw new UsageError(`${path}: "audit" must be a file name`);
  const sampling = samplingOf(settings['sampling'], path);
  const trustedServers = trustedOf(settings['trustedServers'], path);
  return {
    ...(audit !== undefined ? { audit } : {}),
    ...(sampling !== undefined ? { sampling } : {}),
    ...(trustedServers !== undefined ? { trustedServers } : {}),
  };
}

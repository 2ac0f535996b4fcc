/**
 * @module The CLI's own settings file, `config.json` beside the credentials file
 * (`$XDG_CONFIG_HOME/toolwire/`): defaults the command line can override. Today one setting,
 * `audit`, the file `list` and `call` append their audit trail to when `--audit` is not given.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { defaultCredentialsPath } from '../node.js';
import { UsageError } from './argValues.js';

/** The settings. */
export interface CliConfig {
  /** Default of `--audit`. */
  audit?: string;
}

/** Where the settings are read from. */
export function configPath(): string {
  return join(dirname(defaultCredentialsPath()), 'config.json');
}

/** Reads the settings; none when the file does not exist; a file it cannot use is a usage error. */
export function readConfig(path = configPath()): CliConfig {
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
  const audit = (parsed as Record<string, unknown>)['audit'];
  if (audit !== undefined && (typeof audit !== 'string' || audit === ''))
    throw new UsageError(`${path}: "audit" must be a file name`);
  return audit === undefined ? {} : { audit };
}

/**
 * @module Reading option values (headers, sizes, `--json`, `--arg`) and turning `util.parseArgs` failures into usage
 * errors in the program's own words, with a pointer to the command's help.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { suggestion } from './closest.js';

/** `--era`: how the client opens the session (see `ClientOptions.protocolEra`). */
export type CliEra = 'legacy' | 'modern' | 'auto';

const ERAS: readonly CliEra[] = ['legacy', 'modern', 'auto'];

/** An `--era` value, checked; `fallback` when not given. */
export function eraValue(raw: unknown, command: string, fallback: CliEra): CliEra {
  if (raw === undefined) return fallback;
  if (!ERAS.includes(raw as CliEra))
    throw new UsageError(`${command}: --era must be one of ${ERAS.join(', ')}`);
  return raw as CliEra;
}

/** A usage mistake; the message says what is wrong. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Reads `--header 'Name: value'` entries (names lower-cased). */
export function headersOf(
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

/** Reads `call --json '{...}'`: a JSON object, or a usage error. */
export function jsonArguments(raw: string | undefined): Record<string, unknown> | undefined {
  if (raw === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new UsageError('call: --json is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError('call: --json must be a JSON object');
  return value as Record<string, unknown>;
}

/** Reads `call --arg key=value` entries as raw pairs (typed later from the input schema). */
export function argPairs(entries: readonly string[] | undefined): Array<[string, string]> {
  return (entries ?? []).map((entry): [string, string] => {
    const eq = entry.indexOf('=');
    if (eq <= 0) throw new UsageError(`call: --arg needs key=value (got ${JSON.stringify(entry)})`);
    return [entry.slice(0, eq), entry.slice(eq + 1)];
  });
}

const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kib: 1024,
  kb: 1000,
  m: 1024 ** 2,
  mib: 1024 ** 2,
  mb: 1000 ** 2,
  g: 1024 ** 3,
  gib: 1024 ** 3,
  gb: 1000 ** 3,
};

/** Largest message size accepted by `--max-message-bytes`: about what one JS string can hold. */
export const MAX_MESSAGE_BYTES_LIMIT: number = 512 * 1024 ** 2;

/** Reads a byte size: `5000000`, `512KiB`, `16MiB`, `16M` (binary), `16MB` (decimal). */
export function parseByteSize(raw: string, flag: string, command: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(raw.trim());
  const unit = UNITS[match?.[2]?.toLowerCase() ?? 'none'];
  const bytes = match && unit !== undefined ? Math.floor(Number(match[1]) * unit) : NaN;
  if (!(bytes >= 1024 && bytes <= MAX_MESSAGE_BYTES_LIMIT))
    throw new UsageError(
      `${command}: ${flag} needs a size from 1KiB to 512MiB, such as 16MiB or 20000000 (got ${JSON.stringify(raw)})`,
    );
  return bytes;
}

/**
 * A `util.parseArgs` failure as a usage error: which option, what is wrong with it, the closest
 * known option for a misspelt one, and where the help is. Node's own text is never shown.
 */
export function parseArgsFailure(error: unknown, command: string, known: string[]): UsageError {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : '';
  const option = /'(-{1,2}[^'\s=]+)/.exec(message)?.[1] ?? 'an option';
  const help = `(see toolwire ${command} --help)`;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const near = option.startsWith('--') ? suggestion(option.slice(2), known) : undefined;
    const hint = near === undefined ? '' : `; did you mean --${near}?`;
    return new UsageError(`${command}: unknown option ${option}${hint} ${help}`);
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (/does not take an argument/.test(message))
      return new UsageError(`${command}: ${option} takes no value ${help}`);
    if (/ambiguous/.test(message))
      return new UsageError(
        `${command}: ${option} needs a value (write ${option}=-value for one starting with "-") ${help}`,
      );
    return new UsageError(`${command}: ${option} needs a value ${help}`);
  }
  return new UsageError(`${command}: invalid arguments ${help}`);
}

/** Parses a command's own arguments (before any `--`) with `options`; usage errors reworded. */
export function parseOwn<T extends NonNullable<ParseArgsConfig['options']>>(
  own: string[],
  options: T,
  command: string,
): ReturnType<
  typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>
> {
  try {
    return parseArgs({ args: own, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw parseArgsFailure(error, command, Object.keys(options));
  }
}

/**
 * @module The program's version, read at run time from the package.json two folders above the
 * built file (`dist/cli/` in the repository and in an installed package alike).
 */
import { readFileSync } from 'node:fs';

/** The version in package.json, or "unknown" if it cannot be read. */
export function packageVersion(): string {
  try {
    const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
    const version = (JSON.parse(text) as { version?: unknown }).version;
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}

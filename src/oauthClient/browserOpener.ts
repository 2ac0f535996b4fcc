/**
 * @module Sending the user to the authorization URL from a Node program: the URL is always
 * printed (on stderr, so someone without a browser, or on another machine, can copy it), and
 * opened with the platform's opener (`open`, `xdg-open`, `rundll32 url.dll,FileProtocolHandler`)
 * started directly, never through a shell, so no character of the URL is ever interpreted. Only
 * `https:` URLs are opened, or `http:` on a loopback host when the application allows it: never
 * `javascript:`, `file:`, `data:` or a URL with credentials that disguise its host.
 */
import { spawn as nodeSpawn, type SpawnOptions } from 'node:child_process';
import { LocalError } from '../jsonrpc/errors.js';
import { isLoopbackHost } from '../transports/http/shared/loopback.js';
import type { OpenAuthorizationUrl } from './types.js';

/** The part of a child process the opener uses. */
export interface SpawnedOpener {
  on(event: 'error', listener: (error: Error) => void): unknown;
  unref(): void;
}

/** Starts a program with arguments (Node's `child_process.spawn`, or a test's stand-in). */
export type SpawnFunction = (
  command: string,
  args: readonly string[],
  options: SpawnOptions,
) => SpawnedOpener;

/** Options of {@link openInBrowser}. */
export interface OpenInBrowserOptions {
  /** Allow `http:` URLs on a loopback host (development). Default false. */
  allowLoopbackHttp?: boolean;
  /** Start the platform's opener (default true); false only prints the URL (`--no-browser`). */
  browser?: boolean;
  /** Where the URL is printed (default `process.stderr`). */
  output?: { write(text: string): unknown };
  /** The platform whose opener is used (default `process.platform`). */
  platform?: string;
  /**
   * The environment the opener runs in (default `process.env`); on Linux and the BSDs it must
   * name a display (`DISPLAY` or `WAYLAND_DISPLAY`) for a browser to be started.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** Starts the opener (default `child_process.spawn`). */
  spawn?: SpawnFunction;
}

/** Characters a URL as sent never holds (a real one has them percent-encoded). */
const INVISIBLE =
  /[\u0000-\u0020\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;

/**
 * Why `url` must not be opened, or undefined when it may: an absolute `https:` URL (or `http:`
 * on a loopback host when allowed) without user name, password or invisible characters.
 */
export function authorizationUrlProblem(
  url: URL | string,
  allowLoopbackHttp = false,
): string | undefined {
  const raw = String(url);
  if (INVISIBLE.test(raw)) return 'it contains whitespace or invisible characters';
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return 'it is not an absolute URL';
  }
  if (parsed.username !== '' || parsed.password !== '') return 'it carries a user name or password';
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol === 'http:') {
    if (!isLoopbackHost(parsed.hostname)) return 'an http URL is allowed on loopback only';
    return allowLoopbackHttp ? undefined : 'http is allowed only when loopback http is allowed';
  }
  return `its scheme ${parsed.protocol} is not https`;
}

/** The platform's opener: the program and its arguments before the URL. */
function openerFor(platform: string): [string, string[]] {
  if (platform === 'darwin') return ['open', []];
  if (platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler']];
  return ['xdg-open', []];
}

/** Whether a browser can be shown: on Linux and the BSDs, only with a graphical display. */
function hasDisplay(platform: string, env: Readonly<Record<string, string | undefined>>): boolean {
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env['DISPLAY'] || env['WAYLAND_DISPLAY']);
}

/**
 * Prints the authorization URL on stderr and opens it in the user's browser when there is one.
 * Throws a `denied` {@link LocalError} (and prints nothing) for a URL that must not be opened;
 * a missing or failing opener is ignored (the printed URL is the way then).
 */
export function openInBrowser(url: URL | string, options: OpenInBrowserOptions = {}): void {
  const problem = authorizationUrlProblem(url, options.allowLoopbackHttp === true);
  if (problem !== undefined)
    throw new LocalError('denied', `refusing to open the authorization URL: ${problem}`);
  const href = new URL(String(url)).href;
  const output = options.output ?? process.stderr;
  output.write(`To authorize, open this URL in a browser:\n\n  ${href}\n\n`);
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  if (options.browser === false || !hasDisplay(platform, env)) return;
  const [command, args] = openerFor(platform);
  const spawn = options.spawn ?? nodeSpawn;
  try {
    const child = spawn(command, [...args, href], {
      shell: false,
      detached: true,
      stdio: 'ignore',
      windowsHide: true,
      env,
    });
    // No opener installed (ENOENT) or none that works: the URL was printed.
    child.on('error', () => {});
    child.unref();
  } catch {
    // As above: spawning is a convenience.
  }
}

/** {@link openInBrowser} with fixed options, as the OAuth client's `openAuthorizationUrl`. */
export function browserOpener(options: OpenInBrowserOptions = {}): OpenAuthorizationUrl {
  return (url) => openInBrowser(url, options);
}

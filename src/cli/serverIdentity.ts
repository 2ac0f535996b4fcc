/**
 * @module Which server a command line reaches, as the person configured it: a URL (without its
 * fragment), or the program and the files it runs, with their real paths. `-- node server.mjs`
 * run from another folder runs another program, so the words as typed do not identify a server:
 * the program is looked up on PATH and every argument that names a file is resolved (symbolic
 * links followed). "Always allow" decisions and trust are kept under this identity, and it is
 * what the person is shown; the name a server gives itself is only a label (anyone can call
 * a server "github").
 */
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/** A server as a command line names it. */
export type NamedServer =
  { kind: 'url'; url: string } | { kind: 'command'; command: string; args: readonly string[] };

/** The real path of a file that exists, else undefined. */
function realFile(path: string): string | undefined {
  try {
    return statSync(path).isFile() ? realpathSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/** The program a command runs: a path as given (resolved), else the first match on PATH. */
function resolveProgram(command: string, cwd: string, env: NodeJS.ProcessEnv): string {
  if (command.includes('/') || command.includes('\\') || isAbsolute(command))
    return realFile(resolve(cwd, command)) ?? command;
  const extensions =
    process.platform === 'win32' ? ['', ...(env['PATHEXT'] ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  for (const folder of (env['PATH'] ?? '').split(delimiter)) {
    if (folder === '') continue;
    for (const extension of extensions) {
      const candidate = join(folder, command + extension);
      try {
        accessSync(candidate, constants.X_OK);
      } catch {
        continue;
      }
      const real = realFile(candidate);
      if (real) return real;
    }
  }
  return command;
}

/** A URL as kept: its fragment dropped (never sent), the rest as the URL parser writes it. */
export function normalisedUrl(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}

/**
 * The identity of a server: its URL, or `-- "<program>" "<arg>"...` with the program's real path
 * and each argument that names a file (from `cwd`) as its real path; other arguments as given.
 */
export function serverIdentity(
  server: NamedServer,
  cwd: string = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (server.kind === 'url') return normalisedUrl(server.url);
  const words = [
    resolveProgram(server.command, cwd, env),
    ...server.args.map((arg) => (arg.startsWith('-') ? arg : (realFile(resolve(cwd, arg)) ?? arg))),
  ];
  return ['--', ...words.map((w) => JSON.stringify(w))].join(' ');
}

/**
 * A server as the person writes it to `approvals` or in config.json: a URL, an identity as
 * `approvals list` prints it (`-- "..."`), or a command line's words after `--`.
 */
export function identityOf(words: readonly string[], cwd?: string): string {
  const [first, ...rest] = words;
  if (first === '--' && rest[0] !== undefined && !rest[0].startsWith('"'))
    return serverIdentity({ kind: 'command', command: rest[0], args: rest.slice(1) }, cwd);
  const text = words.join(' ');
  if (/^https?:\/\//i.test(text) && URL.canParse(text)) return normalisedUrl(text);
  return text;
}

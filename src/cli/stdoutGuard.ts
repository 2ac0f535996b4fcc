/**
 * @module The standard streams of `serve` over stdio: stdout is kept for MCP messages only
 * (anything else a user module prints, console.log or process.stdout.write, goes to stderr
 * instead of corrupting the stream; the stdio transport binds the real `write` before this runs),
 * and a person who started it on a terminal is told what it waits for.
 */

/** Redirects console output and `process.stdout.write` to stderr. */
export function guardStdout(): void {
  const toStderr = (...args: unknown[]): void => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  process.stdout.write = process.stderr.write.bind(process.stderr);
}

/**
 * Over stdio a server says nothing until a client speaks: a person who ran `serve` on a terminal
 * is told what it waits for (one line on stderr; a host, whose stdin is a pipe, sees none).
 */
export function sayWaitingOnTerminal(name: string): void {
  if (process.stdin.isTTY !== true) return;
  process.stderr.write(
    `toolwire: serving ${name} over stdio: waiting for an MCP client on stdin (a host such as toolwire list -- toolwire serve <module> runs it; Ctrl-C stops it)\n`,
  );
}

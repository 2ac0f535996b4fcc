/**
 * @module Keeps stdout for MCP messages only while serving over stdio: anything else a user
 * module prints (console.log, process.stdout.write) goes to stderr instead of corrupting the stream.
 * The stdio transport binds the real `write` before this runs.
 */

/** Redirects console output and `process.stdout.write` to stderr. */
export function guardStdout(): void {
  const toStderr = (...args: unknown[]): void => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  process.stdout.write = process.stderr.write.bind(process.stderr);
}

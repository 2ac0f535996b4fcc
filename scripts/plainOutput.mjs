// Colour codes only for a person at a terminal. Vitest (tinyrainbow) colours its output whenever
// TERM is not "dumb", even into a file or a pipe, and publint does under CI: a log redirected from
// `npm test` was full of escape sequences. Off a terminal, the tools get NO_COLOR (which every one
// of them honours); FORCE_COLOR=0 asks for the same thing (tinyrainbow would read any FORCE_COLOR
// as "colour on"). NO_COLOR, or another FORCE_COLOR, set by the person, is left as they set it.

/**
 * The environment for the tools `npm test` runs: `env` with NO_COLOR=1 when its output does not
 * go to a terminal (one of `streams` is not a TTY) or FORCE_COLOR is 0 or false; `env` otherwise.
 */
export function plainOutputEnv(env = process.env, streams = [process.stdout, process.stderr]) {
  const force = env.FORCE_COLOR;
  if ('NO_COLOR' in env) return env;
  if (force === '0' || force === 'false') {
    // Node warns when both are set ("The 'NO_COLOR' env is ignored due to the 'FORCE_COLOR' env").
    const { FORCE_COLOR: _ignored, ...rest } = env;
    return { ...rest, NO_COLOR: '1' };
  }
  if (force !== undefined || streams.every((stream) => stream.isTTY === true)) return env;
  return { ...env, NO_COLOR: '1' };
}

/**
 * @module Ctrl-C while a command talks to a server: the first SIGINT aborts the command's signal
 * (the client then cancels the call or the task) so it can end cleanly and exit 130; a second one
 * exits at once.
 */

/** What a command sees of Ctrl-C. */
export interface Interrupt {
  /** Aborted by the first SIGINT. */
  readonly signal: AbortSignal;
  /** True once SIGINT arrived. */
  readonly interrupted: boolean;
  /** Runs `action` first thing on SIGINT (e.g. clearing the progress bar). */
  onInterrupt(action: () => void): void;
  /** Stops listening. */
  dispose(): void;
}

/** The process-like object SIGINT is heard on (the real process by default). */
export interface SignalSource {
  on(event: 'SIGINT', listener: () => void): unknown;
  off(event: 'SIGINT', listener: () => void): unknown;
}

/** Listens for SIGINT until disposed; `exitNow` ends the program on the second one. */
export function interruptOnSigint(
  source: SignalSource = process,
  exitNow: (code: number) => void = (code) => process.exit(code),
): Interrupt {
  const controller = new AbortController();
  const actions: Array<() => void> = [];
  let count = 0;
  const listener = (): void => {
    count += 1;
    if (count > 1) {
      exitNow(130);
      return;
    }
    for (const action of actions) action();
    controller.abort(new Error('Interrupted (Ctrl-C)'));
  };
  source.on('SIGINT', listener);
  return {
    signal: controller.signal,
    get interrupted() {
      return count > 0;
    },
    onInterrupt: (action) => actions.push(action),
    // Once interrupted the program is on its way out, and may still be ending what it started (a
    // model command that ignores SIGTERM): a second Ctrl-C must still exit 130 through
    // process.exit, whose exit hooks end those, not kill the program by the default action.
    dispose: () => {
      if (count === 0) source.off('SIGINT', listener);
    },
  };
}

/**
 * @module One dialogue at a time on a terminal. `toolwire call` asks the person several things
 * that can come at once: a call's confirmation, and a server's elicitation and sampling requests
 * (a server may send them concurrently, even while the person is being asked about the call).
 * Two line readers on one input both receive every line, so one "y" would answer them all: open
 * a URL, send a prompt to the model and allow a call. So a dialogue waits for its turn on its
 * input: it prints nothing and reads nothing until the dialogue before it has ended. Each has its
 * own line reader, closed when it ends (an open reader would keep stdin flowing and the process
 * alive).
 */
import { createInterface } from 'node:readline/promises';

/** The terminal a dialogue runs on. */
export interface TurnIo {
  input: NodeJS.ReadableStream;
  output: { write(text: string): unknown };
  /** Ends the dialogue, waiting or running (Ctrl-C, or the request it answers was cancelled). */
  signal?: AbortSignal;
}

/** Asks one question (already shown by the caller, or `question`) and resolves with the line. */
export type Ask = (question?: string) => Promise<string>;

/** The error of a question asked of a terminal whose input has ended. */
const endOfInput = (): Error => new Error('The terminal has no more input to answer with');

/** The end of the last dialogue that took a turn, per input. */
const lastTurn = new WeakMap<NodeJS.ReadableStream, Promise<void>>();

/** Resolves when `turn` does; rejects with the abort reason if `signal` aborts first. */
function waitFor(turn: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return turn;
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    void turn.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

/**
 * Runs `dialogue` once every dialogue that took a turn on `io.input` before it has ended. Its
 * questions are read from its own line reader, aborted by `io.signal`.
 */
export async function takeTurn<T>(io: TurnIo, dialogue: (ask: Ask) => Promise<T>): Promise<T> {
  const before = lastTurn.get(io.input) ?? Promise.resolve();
  let end!: () => void;
  const mine = new Promise<void>((resolve) => (end = resolve));
  // The next one waits for this one and, should this one give up while waiting, for the one
  // before it too: never two dialogues at once.
  lastTurn.set(
    io.input,
    Promise.all([before, mine]).then(() => {}),
  );
  try {
    await waitFor(before, io.signal);
    // At the end of its input (Ctrl-D, a closed pipe) a terminal answers nothing more: a
    // question would wait forever, and every one queued behind it.
    if ((io.input as { readableEnded?: boolean }).readableEnded === true) throw endOfInput();
    // terminal: false keeps the terminal cooked: Ctrl-C reaches the process as SIGINT.
    const rl = createInterface({ input: io.input, terminal: false });
    const ended = new Promise<never>((_, reject) => rl.once('close', () => reject(endOfInput())));
    ended.catch(() => {}); // also settled by the close below, when nobody waits on it
    try {
      return await dialogue((question) => {
        if (question !== undefined) io.output.write(question);
        return Promise.race([rl.question('', io.signal ? { signal: io.signal } : {}), ended]);
      });
    } finally {
      rl.close();
    }
  } finally {
    end();
  }
}

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
    // terminal: false keeps the terminal cooked: Ctrl-C reaches the process as SIGINT.
    const rl = createInterface({ input: io.input, terminal: false });
    try {
      return await dialogue((question) => {
        if (question !== undefined) io.output.write(question);
        return rl.question('', io.signal ? { signal: io.signal } : {});
      });
    } finally {
      rl.close();
    }
  } finally {
    end();
  }
}

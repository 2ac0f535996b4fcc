/**
 * @module A server's sampling requests answered by a model command the user configured
 * (`config.json`: `"sampling": {"command": "llm", "args": ["-m", "..."]}`), with the person in
 * the loop: on a terminal the request is shown and sent only when allowed, and the reply is shown
 * and returned only when allowed (`--yes` allows both). The command runs without a shell, gets
 * the request's params as JSON on stdin, and prints the reply on stdout: plain text, or a JSON
 * `CreateMessageResult`. It is killed when the server cancels the request, the call ends, or it
 * runs past its time; its output is bounded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { basename } from 'node:path';
import type { CreateMessageParams, CreateMessageResult } from '../index.js';
import { RpcError } from '../jsonrpc/errors.js';
import type { PromptIo } from './callConfirmation.js';
import type { SamplingConfig } from './config.js';
import { terminalLine } from './terminalText.js';
import { takeTurn } from './terminalTurn.js';
import { describeSampling, USER_REJECTED } from './terminalSampling.js';

/** The most a model command may print. */
const MAX_REPLY_BYTES = 1024 * 1024;
/** How long a model command may run by default. */
const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * The model a server is told answered: the program's name, never its arguments (which may hold
 * keys or paths).
 */
export function modelOf(config: SamplingConfig): string {
  return basename(config.command);
}

/** The reply a command printed: a CreateMessageResult (JSON), else its text. */
export function replyOf(stdout: string, model: string): CreateMessageResult {
  const text = stdout.trim();
  if (text.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const reply = parsed as Partial<CreateMessageResult> | undefined;
    const content = reply?.content;
    const blocks = Array.isArray(content) ? content : [content];
    if (
      reply &&
      blocks.length > 0 &&
      blocks.every((b) => typeof b === 'object' && b !== null && typeof b.type === 'string')
    )
      return {
        ...reply,
        role: reply.role === 'user' ? 'user' : 'assistant',
        content: content as CreateMessageResult['content'],
        model: typeof reply.model === 'string' ? reply.model : model,
      };
  }
  if (text === '') throw new RpcError(-32603, `The model command (${model}) printed no reply`);
  return { role: 'assistant', content: { type: 'text', text }, model };
}

/** How long a model command has to exit after SIGTERM before it gets SIGKILL. */
const KILL_GRACE_MS = 2_000;

/**
 * The model commands running now. A CLI that ends while one runs takes it with it: in its own
 * process group, the terminal's signals do not reach it, so it would run on, orphaned. On the
 * process's exit, and on a signal that ends the process (a second Ctrl-C once the first one's
 * handler is gone), each command's group gets SIGKILL; the signal then does what it would have.
 */
const running = new Set<ChildProcess>();
const ENDING_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
let killedOnExit = false;

function killAll(): void {
  for (const command of running) signalGroup(command, 'SIGKILL');
}

function onEndingSignal(signal: NodeJS.Signals): void {
  killAll();
  // Others listen (a Ctrl-C that cancels a call): they decide. Else the process ends, as it would.
  if (process.listenerCount(signal) > 1) return;
  for (const s of ENDING_SIGNALS) process.off(s, onEndingSignal);
  process.kill(process.pid, signal);
}

function track(child: ChildProcess): void {
  if (running.size === 0) for (const s of ENDING_SIGNALS) process.on(s, onEndingSignal);
  running.add(child);
  // 'close', not 'exit': what it started may still hold its output.
  child.once('close', () => {
    running.delete(child);
    if (running.size === 0) for (const s of ENDING_SIGNALS) process.off(s, onEndingSignal);
  });
  if (killedOnExit) return;
  killedOnExit = true;
  process.once('exit', killAll);
}

/** Sends `signal` to the command's process group (to the command alone on Windows). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // Already gone.
  }
}

/**
 * Ends the command and everything it started: it runs in its own process group (spawned
 * `detached`), so a grandchild holding stdout open, or a command that ignores SIGTERM, cannot
 * outlive the request.
 */
function killGroup(child: ChildProcess): void {
  signalGroup(child, 'SIGTERM');
  setTimeout(() => signalGroup(child, 'SIGKILL'), KILL_GRACE_MS).unref();
}

/**
 * Runs the command once with `input` on its stdin; resolves with what it printed. Settles as soon
 * as the request is cancelled, the time runs out or the output passes its cap, without waiting
 * for the command to go.
 */
export function runModelCommand(
  config: SamplingConfig,
  input: string,
  signal: AbortSignal,
): Promise<string> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new RpcError(-32603, 'The sampling request was cancelled'));
      return;
    }
    const child = spawn(config.command, config.args, {
      stdio: ['pipe', 'pipe', 'inherit'],
      detached: true,
    });
    track(child);
    let settled = false;
    const finish = (error: RpcError | undefined, stdout?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (error) {
        // Even when the command itself is gone: what it started may hold its stdout.
        killGroup(child);
        child.stdout.destroy();
        reject(error);
      } else resolve(stdout ?? '');
    };
    const onAbort = (): void => finish(new RpcError(-32603, 'The sampling request was cancelled'));
    const timer = setTimeout(
      () => finish(new RpcError(-32603, 'The model command timed out')),
      config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    );
    signal.addEventListener('abort', onAbort, { once: true });
    const chunks: Buffer[] = [];
    let size = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REPLY_BYTES) chunks.push(chunk);
      else
        finish(
          new RpcError(-32603, `The model command printed more than ${MAX_REPLY_BYTES} bytes`),
        );
    });
    child.stdin.on('error', () => {}); // a command that does not read its input
    child.stdin.end(input);
    child.once('error', (error) =>
      finish(new RpcError(-32603, `The model command failed: ${error.message}`)),
    );
    child.once('close', (code, killedBy) => {
      if (code !== 0)
        finish(new RpcError(-32603, `The model command exited with ${String(code ?? killedBy)}`));
      else finish(undefined, Buffer.concat(chunks).toString('utf8'));
    });
  });
}

/**
 * Shows `shown` and asks a yes/no question on the terminal, in a turn of its own (no other
 * question reads the answer); no is the default.
 */
function allowed(io: PromptIo, shown: string, question: string): Promise<boolean> {
  return takeTurn(io, async (ask) => {
    io.output.write(shown);
    return /^y(es)?$/i.test((await ask(`${question} [y/N] `)).trim());
  });
}

/**
 * The sampling handler of a configured model command. `terminal`: the terminal to ask on (none: the
 * person allowed everything beforehand with `--yes`).
 */
export function commandSampling(
  config: SamplingConfig,
  terminal: PromptIo | undefined,
): (params: CreateMessageParams, context: { signal: AbortSignal }) => Promise<CreateMessageResult> {
  // Shown in full to the person who configured it; the server learns only the program's name.
  const commandLine = [config.command, ...config.args].join(' ');
  const model = modelOf(config);
  return async (params, context) => {
    // A request the server cancels takes its question away. Each question is a turn of its own:
    // other questions may be asked while the model writes.
    const io: PromptIo | undefined = terminal && {
      ...terminal,
      signal: terminal.signal ? AbortSignal.any([terminal.signal, context.signal]) : context.signal,
    };
    try {
      if (io) {
        const shown = `${describeSampling(params).join('\n')}\n`;
        if (!(await allowed(io, shown, `Send it to ${terminalLine(commandLine)}?`)))
          throw new RpcError(USER_REJECTED, 'User rejected sampling request');
      }
      // Ended by the server's cancel, and by the person's Ctrl-C: the command has its own
      // process group, so the terminal's SIGINT does not reach it.
      const printed = await runModelCommand(
        config,
        JSON.stringify(params),
        io?.signal ?? context.signal,
      );
      const reply = replyOf(printed, model);
      if (io) {
        const blocks = Array.isArray(reply.content) ? reply.content : [reply.content];
        const text = blocks
          .map((b) => (b.type === 'text' ? b.text : `[${String(b.type)}]`))
          .join(' ');
        const shown = `The model replied: ${terminalLine(text)}\n`;
        if (!(await allowed(io, shown, 'Return this reply to the server?')))
          throw new RpcError(USER_REJECTED, 'User rejected the sampling reply');
      }
      return reply;
    } catch (error) {
      // Withdrawn by the server, not ended by the person's Ctrl-C (which also closes the client).
      if (io && context.signal.aborted && terminal?.signal?.aborted !== true)
        io.output.write('\nThe server withdrew its sampling request.\n');
      throw error;
    }
  };
}

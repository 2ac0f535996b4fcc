/**
 * @module A server's sampling requests answered by a model command the user configured
 * (`config.json`: `"sampling": {"command": "llm", "args": ["-m", "..."]}`), with the person in
 * the loop: on a terminal the request is shown and sent only when allowed, and the reply is shown
 * and returned only when allowed (`--yes` allows both). The command runs without a shell, gets
 * the request's params as JSON on stdin, and prints the reply on stdout: plain text, or a JSON
 * `CreateMessageResult`. It is killed when the server cancels the request, the call ends, or it
 * runs past its time; its output is bounded.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline/promises';
import { RpcError, type CreateMessageParams, type CreateMessageResult } from '../index.js';
import type { PromptIo } from './callConfirmation.js';
import type { SamplingConfig } from './config.js';
import { terminalLine } from './terminalText.js';
import { describeSampling, USER_REJECTED } from './terminalSampling.js';

/** The most a model command may print. */
const MAX_REPLY_BYTES = 1024 * 1024;
/** How long a model command may run by default. */
const DEFAULT_TIMEOUT_MS = 120_000;

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

/** Runs the command once with `input` on its stdin; resolves with what it printed. */
export function runModelCommand(
  config: SamplingConfig,
  input: string,
  signal: AbortSignal,
): Promise<string> {
  return new Promise((resolve, reject) => {
    // Ended by the request's signal or the time limit, whichever comes first.
    const stop = new AbortController();
    const end = () => stop.abort();
    const timer = setTimeout(end, config.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    if (signal.aborted) end();
    signal.addEventListener('abort', end, { once: true });
    const child = spawn(config.command, config.args, {
      stdio: ['pipe', 'pipe', 'inherit'],
      signal: stop.signal,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REPLY_BYTES) child.kill();
      else chunks.push(chunk);
    });
    child.stdin.on('error', () => {}); // a command that does not read its input
    child.stdin.end(input);
    child.once('error', (error) => {
      // Stopped on purpose: 'close' says why.
      if (!stop.signal.aborted)
        reject(new RpcError(-32603, `The model command failed: ${error.message}`));
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', end);
      if (stop.signal.aborted)
        reject(
          new RpcError(
            -32603,
            signal.aborted ? 'The sampling request was cancelled' : 'The model command timed out',
          ),
        );
      else if (size > MAX_REPLY_BYTES)
        reject(
          new RpcError(-32603, `The model command printed more than ${MAX_REPLY_BYTES} bytes`),
        );
      else if (code !== 0)
        reject(new RpcError(-32603, `The model command exited with ${String(code)}`));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}

/** Asks a yes/no question on the terminal; no is the default. */
async function allowed(
  rl: ReturnType<typeof createInterface>,
  io: PromptIo,
  question: string,
): Promise<boolean> {
  io.output.write(`${question} [y/N] `);
  const answer = await rl.question('', io.signal ? { signal: io.signal } : {});
  return /^y(es)?$/i.test(answer.trim());
}

/**
 * The sampling handler of a configured model command. `ask`: the terminal to ask on (none: the
 * person allowed everything beforehand with `--yes`).
 */
export function commandSampling(
  config: SamplingConfig,
  ask: PromptIo | undefined,
): (params: CreateMessageParams, context: { signal: AbortSignal }) => Promise<CreateMessageResult> {
  const model = [config.command, ...config.args].join(' ');
  return async (params, context) => {
    // One reader for both questions: answers typed ahead are not lost between them.
    const rl = ask ? createInterface({ input: ask.input, terminal: false }) : undefined;
    try {
      if (ask && rl) {
        ask.output.write(`${describeSampling(params).join('\n')}\n`);
        if (!(await allowed(rl, ask, `Send it to ${terminalLine(model)}?`)))
          throw new RpcError(USER_REJECTED, 'User rejected sampling request');
      }
      const printed = await runModelCommand(config, JSON.stringify(params), context.signal);
      const reply = replyOf(printed, model);
      if (ask && rl) {
        const blocks = Array.isArray(reply.content) ? reply.content : [reply.content];
        const text = blocks
          .map((b) => (b.type === 'text' ? b.text : `[${String(b.type)}]`))
          .join(' ');
        ask.output.write(`The model replied: ${terminalLine(text)}\n`);
        if (!(await allowed(rl, ask, 'Return this reply to the server?')))
          throw new RpcError(USER_REJECTED, 'User rejected the sampling reply');
      }
      return reply;
    } finally {
      rl?.close();
    }
  };
}

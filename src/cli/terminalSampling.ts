/**
 * @module A server's sampling request (`sampling/createMessage`) during `toolwire call` on a
 * terminal: the CLI has no model to sample with, so the request is shown (the system prompt and
 * the messages' text, made safe for the terminal, and the token budget) and refused with the
 * spec's user-rejection error, so the person sees what the server wanted to ask a model. (A model
 * command named in config.json answers instead: samplingCommand.ts.)
 */
import type { CreateMessageParams, CreateMessageResult } from '../index.js';
import { RpcError } from '../jsonrpc/errors.js';
import { terminalLine } from './terminalText.js';

/** The spec's code for a sampling request the user rejected. */
export const USER_REJECTED = -1;

/** Text of a sampling message's content (one block or several); other kinds named. */
function textOf(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((b) => {
      const block = b as { type?: unknown; text?: unknown };
      return block.type === 'text' && typeof block.text === 'string'
        ? block.text
        : `[${String(block.type)}]`;
    })
    .join(' ');
}

/** A sampling request as lines for the terminal. */
export function describeSampling(params: CreateMessageParams): string[] {
  const lines = ['', 'The server asks for a model completion (sampling):'];
  if (params.systemPrompt) lines.push(`  system: ${terminalLine(params.systemPrompt)}`);
  for (const message of params.messages)
    lines.push(`  ${terminalLine(message.role)}: ${terminalLine(textOf(message.content))}`);
  lines.push(`  (at most ${params.maxTokens} tokens)`);
  return lines;
}

/** The sampling handler of the CLI on a terminal: shows the request, then refuses it. */
export function terminalSampling(output: {
  write(text: string): unknown;
}): (params: CreateMessageParams) => Promise<CreateMessageResult> {
  return async (params) => {
    const lines = describeSampling(params);
    lines.push(
      'Refused: toolwire call has no model to sample with ("sampling" in config.json names one).',
    );
    output.write(`${lines.join('\n')}\n`);
    throw new RpcError(USER_REJECTED, 'User rejected sampling request: toolwire call has no model');
  };
}

/**
 * @module Asking the person at the terminal before `toolwire call` runs a tool: the tool's
 * definition summary (its text made safe for a terminal), the arguments, and, when its definition
 * changed since it was allowed always, what changed. Which tools are asked about: `--confirm
 * always`, `never`, or `unless-read-only` (the default; the CLI trusts the annotations of the
 * server its user named). `--yes` allows without asking. Without a terminal, a tool that needs
 * confirmation is refused (exit 2) with the ways to allow it.
 */
import type {
  ApprovalDecision,
  ApprovalPolicy,
  ApprovalRequest,
  ApprovalStore,
} from '../client.js';
import type { Tool } from '../index.js';
import { definitionDiff } from './definitionDiff.js';
import { CliFailure, EXIT } from './failure.js';
import { renderTool } from './render.js';
import { terminalJson, terminalLine } from './terminalText.js';
import { takeTurn } from './terminalTurn.js';

/** Which calls are confirmed. */
export type ConfirmMode = 'always' | 'unless-read-only' | 'never';

/** The modes, as `--confirm` takes them. */
export const CONFIRM_MODES: readonly ConfirmMode[] = ['always', 'unless-read-only', 'never'];

/** The terminal the question is asked on. */
export interface PromptIo {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: { write(text: string): unknown; isTTY?: boolean };
  /** Aborts the question (Ctrl-C). */
  signal?: AbortSignal;
}

/** The settings of one `call`. */
export interface ConfirmSettings {
  mode: ConfirmMode;
  yes: boolean;
  /** Where "always allow" decisions are kept (the approvals file, for this server). */
  store: ApprovalStore;
  /** The server as the user named it. */
  server: string;
}

/** Whether `tool` needs confirmation in `mode`. */
export function needsConfirmation(mode: ConfirmMode, tool: Tool): boolean {
  if (mode === 'always') return true;
  if (mode === 'never') return false;
  return tool.annotations?.readOnlyHint !== true;
}

const WHY: Record<ApprovalRequest['reason'], string> = {
  'first-use': 'it is not marked read-only',
  'definition-changed': 'its definition changed since you allowed it always',
  'confirm-every-call': 'every call is confirmed',
};

/** What the person reads before answering. */
export function describeRequest(request: ApprovalRequest, server: string): string {
  const lines = [
    `toolwire: call tool "${terminalLine(request.tool.name)}" on ${terminalLine(server)}?`,
    renderTool(request.tool),
    `  arguments: ${terminalJson(request.arguments, 2).replace(/\n/g, '\n  ')}`,
  ];
  if (request.previous) {
    lines.push('  The definition changed since you allowed it always:');
    for (const line of definitionDiff(request.previous, request.tool))
      lines.push(`    ${terminalLine(line)}`);
  }
  return `${lines.join('\n')}\n`;
}

const ANSWERS: Record<string, ApprovalDecision> = {
  y: 'allow-once',
  yes: 'allow-once',
  a: 'allow-always',
  always: 'allow-always',
  n: 'deny',
  no: 'deny',
  '': 'deny',
};

/** Asks on the terminal; an unclear answer is asked again, three times at most, then denied. */
function ask(request: ApprovalRequest, server: string, io: PromptIo): Promise<ApprovalDecision> {
  // A call the caller gives up on takes its question away, waiting or asked.
  const signals = [io.signal, request.signal].filter((s) => s !== undefined);
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  return takeTurn({ ...io, ...(signal ? { signal } : {}) }, async (answerTo) => {
    io.output.write(describeRequest(request, server));
    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = await answerTo('Allow? [y] once, [a] always (this definition), [N] deny: ');
      const decision = ANSWERS[answer.trim().toLowerCase()];
      if (decision) return decision;
    }
    return 'deny';
  });
}

/** The approval policy of `toolwire call`. */
export function confirmationPolicy(settings: ConfirmSettings, io: PromptIo): ApprovalPolicy {
  return {
    store: settings.store,
    needsConfirmation: (tool) => needsConfirmation(settings.mode, tool),
    confirm: async (request) => {
      if (settings.yes) return 'allow-once';
      if (!io.input.isTTY || !io.output.isTTY)
        throw new CliFailure({
          kind: 'usage',
          message:
            `tool "${terminalLine(request.tool.name)}" needs confirmation (${WHY[request.reason]}), ` +
            'and there is no terminal to ask on: pass --yes to allow it, or --confirm never',
          exitCode: EXIT.usage,
          details: { tool: request.tool.name, reason: request.reason },
        });
      return ask(request, settings.server, io);
    },
  };
}

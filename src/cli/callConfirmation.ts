/**
 * @module Asking the person at the terminal before `toolwire call` runs a tool: which server (its
 * identity: the URL or the real paths it runs; the name it gives itself only as a label), the
 * tool's definition summary (its text made safe for a terminal, hidden characters and look-alike
 * names flagged), the arguments, and, when its definition changed since it was allowed always,
 * what changed; a tool that reappears under a new name is shown as renamed. Which tools are asked
 * about: `--confirm always`, `never`, or `unless-read-only` (the default: read-only tools run
 * unasked only on a server the person marked trusted, and not when being read-only is new).
 * `--yes` allows without asking. Without a terminal, a tool that needs confirmation is refused
 * (exit 2) with the ways to allow it.
 */
import type {
  ApprovalDecision,
  ApprovalPolicy,
  ApprovalRequest,
  ApprovalStore,
} from '../client.js';
import { toolTextFindings } from '../client/approval/toolText.js';
import type { Tool } from '../index.js';
import { definitionDiff } from './definitionDiff.js';
import { CliFailure, EXIT } from './failure.js';
import { renderTool } from './render.js';
import { terminalJson, terminalLine } from './terminalText.js';
import { takeTurn } from './terminalTurn.js';
import type { ConfirmMode } from './args.js';

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
  /** The server's identity (serverIdentity.ts). */
  server: string;
  /** Whether the person marked this server trusted (its annotations decide for read-only tools). */
  trusted: boolean;
  /** The tools the server lists now (to flag a name that looks like another's). */
  listing?: () => readonly Tool[];
  /** What the session says of a tool whose definition gives no task support (render.ts). */
  undeclaredTask?: () => string | undefined;
}

/**
 * Whether `tool` needs confirmation in `mode`, when the mode alone decides: `always` and `never`;
 * `unless-read-only` leaves it to the approval gate (annotations trusted only for a trusted
 * server, and a newly read-only tool asked about).
 */
export function modeDecides(mode: ConfirmMode): ((tool: Tool) => boolean) | undefined {
  if (mode === 'always') return () => true;
  if (mode === 'never') return () => false;
  return undefined;
}

/** Why the person is asked, in words. */
function why(request: ApprovalRequest, trusted: boolean): string {
  switch (request.reason) {
    case 'first-use':
      return trusted || request.tool.annotations?.readOnlyHint !== true
        ? 'it is not marked read-only'
        : 'it says it is read-only, but you have not marked this server trusted';
    case 'definition-changed':
      return 'its definition changed since you allowed it always';
    case 'fewer-confirmations':
      return 'it now says it is read-only, and was not before';
    case 'confirm-every-call':
      return 'every call is confirmed';
  }
}

/** What the person reads before answering. */
export function describeRequest(
  request: ApprovalRequest,
  settings: Pick<ConfirmSettings, 'server' | 'listing' | 'undeclaredTask'>,
): string {
  const { server } = settings;
  const listing = settings.listing?.() ?? [];
  const { tool } = request;
  const label = request.server.name
    ? ` (it calls itself ${JSON.stringify(request.server.name)})`
    : '';
  const lines = [
    `toolwire: call tool "${terminalLine(tool.name)}" on ${terminalLine(server)}${terminalLine(label)}?`,
    renderTool(tool, [], settings.undeclaredTask?.()),
  ];
  const others = listing.map((t) => t.name).filter((n) => n !== tool.name);
  for (const finding of toolTextFindings([tool], others).get(tool.name) ?? [])
    lines.push(`  ! ${terminalLine(finding.message)}`);
  if (request.renamedFrom) {
    const { from, resemblance } = request.renamedFrom;
    lines.push(
      `  ! renamed from "${terminalLine(from)}"? ${resemblance === 'same' ? 'the same definition' : 'a similar definition'} was offered under that name`,
    );
  }
  lines.push(`  arguments: ${terminalJson(request.arguments, 2).replace(/\n/g, '\n  ')}`);
  if (request.previous) {
    lines.push(
      request.reason === 'fewer-confirmations' || request.fewerConfirmations === true
        ? '  ! It now claims to be read-only (no confirmation needed); what changed:'
        : '  The definition changed since you allowed it always:',
    );
    for (const line of definitionDiff(request.previous, tool))
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
function ask(
  request: ApprovalRequest,
  settings: ConfirmSettings,
  io: PromptIo,
): Promise<ApprovalDecision> {
  // A call the caller gives up on takes its question away, waiting or asked.
  const signals = [io.signal, request.signal].filter((s) => s !== undefined);
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  return takeTurn({ ...io, ...(signal ? { signal } : {}) }, async (answerTo) => {
    io.output.write(describeRequest(request, settings));
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
  const decides = modeDecides(settings.mode);
  return {
    store: settings.store,
    trustAnnotations: settings.trusted,
    ...(decides ? { needsConfirmation: decides } : {}),
    confirm: async (request) => {
      if (settings.yes) return 'allow-once';
      if (!io.input.isTTY || !io.output.isTTY)
        throw new CliFailure({
          kind: 'usage',
          message:
            `tool "${terminalLine(request.tool.name)}" needs confirmation (${why(request, settings.trusted)}), ` +
            'and there is no terminal to ask on: pass --yes to allow it, or --confirm never' +
            // A read-only tool of a server not trusted: trusting it is the third way.
            (!settings.trusted &&
            request.reason === 'first-use' &&
            request.tool.annotations?.readOnlyHint === true
              ? ', or --trust-annotations if you trust this server'
              : ''),
          exitCode: EXIT.usage,
          details: { tool: request.tool.name, reason: request.reason },
        });
      return ask(request, settings, io);
    },
  };
}

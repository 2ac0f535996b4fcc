/**
 * @module `toolwire approvals list` and `toolwire approvals revoke <server> [<tool>]`: what the
 * user allowed always, per server (as named on the command line) and tool, with the definition's
 * fingerprint and when; and taking an approval back, so the next call asks again.
 */
import type { Writable } from 'node:stream';
import { UsageError } from './argValues.js';
import { ApprovalsFile } from './approvalsFile.js';
import { EXIT } from './failure.js';
import { terminalJson, terminalLine } from './terminalText.js';

/** `toolwire approvals ...` */
export interface ApprovalsCommand {
  kind: 'approvals';
  action: 'list' | 'revoke';
  /** revoke: the server as `list` shows it (a URL, or `-- "command" "args"...`). */
  server: string | undefined;
  /** revoke: one tool; undefined: all of the server's. */
  tool: string | undefined;
  jsonOutput: boolean;
}

/** Parses `approvals list|revoke ...` (the words after `approvals`, `--` kept for commands). */
export function parseApprovals(words: readonly string[]): ApprovalsCommand {
  const jsonOutput = words.includes('--json-output');
  const rest = words.filter((w) => w !== '--json-output');
  const [action, ...args] = rest;
  if (action === 'list') {
    if (args.length > 0) throw new UsageError('approvals list: takes no arguments');
    return { kind: 'approvals', action, server: undefined, tool: undefined, jsonOutput };
  }
  if (action === 'revoke') {
    const [server, tool, extra] = args;
    if (server === undefined || extra !== undefined)
      throw new UsageError(
        'approvals revoke: give the server as approvals list shows it, and optionally one tool',
      );
    return { kind: 'approvals', action, server, tool, jsonOutput };
  }
  throw new UsageError(
    'approvals: give list, or revoke <server> [<tool>] (see toolwire help approvals)',
  );
}

/** A URL as stored (no fragment), or the text as it is (a command's key). */
function normalised(server: string): string {
  try {
    const url = new URL(server);
    url.hash = '';
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : server;
  } catch {
    return server;
  }
}

/** `toolwire approvals` */
export async function approvalsCommand(
  command: ApprovalsCommand,
  io: { stdout: Pick<Writable, 'write'> },
  file: ApprovalsFile = new ApprovalsFile(),
): Promise<number> {
  if (command.action === 'list') {
    const { servers } = await file.read();
    if (command.jsonOutput) {
      io.stdout.write(terminalJson({ file: file.path, servers }, 2) + '\n');
      return EXIT.ok;
    }
    const lines: string[] = [];
    for (const [server, tools] of Object.entries(servers)) {
      lines.push(terminalLine(server));
      for (const [tool, approved] of Object.entries(tools))
        lines.push(
          `  ${terminalLine(tool)}  allowed ${terminalLine(approved.approvedAt)}  sha256:${terminalLine(approved.fingerprint.slice(0, 16))}`,
        );
    }
    io.stdout.write(lines.length > 0 ? `${lines.join('\n')}\n` : `No approvals in ${file.path}.\n`);
    return EXIT.ok;
  }
  const server = normalised(command.server as string);
  const removed: string[] = [];
  await file.update((doc) => {
    const tools = doc.servers[server];
    if (!tools) return false;
    for (const tool of Object.keys(tools))
      if (command.tool === undefined || tool === command.tool) {
        delete tools[tool];
        removed.push(tool);
      }
    if (Object.keys(tools).length === 0) delete doc.servers[server];
    return removed.length > 0;
  });
  if (command.jsonOutput) io.stdout.write(terminalJson({ server, revoked: removed }, 2) + '\n');
  else
    io.stdout.write(
      removed.length > 0
        ? `Revoked ${removed.map((t) => `"${terminalLine(t)}"`).join(', ')} of ${terminalLine(server)}: the next call asks again.\n`
        : `No approval of ${terminalLine(server)}${command.tool ? ` for "${terminalLine(command.tool)}"` : ''} to revoke.\n`,
    );
  return EXIT.ok;
}

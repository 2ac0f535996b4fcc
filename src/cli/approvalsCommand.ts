/**
 * @module `toolwire approvals list`, `revoke <server> [<tool>]`, `trust <server>` and
 * `distrust <server>`: what the user allowed always, per server (its identity: the URL, or the
 * real paths of what it runs) and tool, with the definition's fingerprint and when; taking an
 * approval back, so the next call asks again; and which servers' annotations the person trusts
 * (read-only tools of those run unasked, as with `call --trust-annotations`).
 */
import type { Writable } from 'node:stream';
import { UsageError } from './argValues.js';
import { ApprovalsFile } from './approvalsFile.js';
import { EXIT } from './failure.js';
import { identityOf } from './serverIdentity.js';
import { terminalJson, terminalLine } from './terminalText.js';

/** `toolwire approvals ...` */
export interface ApprovalsCommand {
  kind: 'approvals';
  action: 'list' | 'revoke' | 'trust' | 'distrust';
  /**
   * revoke, trust, distrust: the server as `list` shows it (a URL, or `-- "command" "args"...` as
   * one word), or a command line after `--` (resolved as `call` resolves it).
   */
  server: string | undefined;
  /** revoke: one tool; undefined: all of the server's. */
  tool: string | undefined;
  jsonOutput: boolean;
}

/** Words that give the server: a URL or one as `list` shows it, or `--` and a command line. */
const SERVER_FORMS = 'a URL, the server as approvals list shows it, or -- <command> [args...]';

/**
 * Parses `approvals list|revoke|trust|distrust ...` (the words after `approvals`, `--` kept for
 * commands). `--json-output` is the command's own only before a `--`: after it, a word of the
 * server's command line.
 */
export function parseApprovals(words: readonly string[]): ApprovalsCommand {
  const end = words.indexOf('--');
  const own = end < 0 ? [...words] : words.slice(0, end);
  const jsonOutput = own.includes('--json-output');
  const [action, ...before] = own.filter((w) => w !== '--json-output');
  // The server's command line, as `list` and `call` take it: `--` and the words after it.
  const command = end < 0 ? undefined : words.slice(end);
  if (action === 'list') {
    if (before.length > 0 || command) throw new UsageError('approvals list: takes no arguments');
    return { kind: 'approvals', action, server: undefined, tool: undefined, jsonOutput };
  }
  if (command !== undefined && (command[1] === undefined || command[1] === ''))
    throw new UsageError(`approvals ${action ?? 'revoke'}: give a command after "--"`);
  if (action === 'revoke') {
    // revoke <url> | <server> [<tool>], or revoke [<tool>] -- <command> [args...] (as call).
    const [first, second, extra] = before;
    if (command ? second !== undefined : first === undefined || extra !== undefined)
      throw new UsageError(
        `approvals revoke: give the server (${SERVER_FORMS}) and optionally one tool: approvals revoke <server> [<tool>], or approvals revoke [<tool>] -- <command> [args...]`,
      );
    return command
      ? { kind: 'approvals', action, server: identityOf(command), tool: first, jsonOutput }
      : {
          kind: 'approvals',
          action,
          server: identityOf([first as string]),
          tool: second,
          jsonOutput,
        };
  }
  if (action === 'trust' || action === 'distrust') {
    if (command ? before.length > 0 : before.length !== 1)
      throw new UsageError(`approvals ${action}: give the server: ${SERVER_FORMS}`);
    return {
      kind: 'approvals',
      action,
      server: identityOf(command ?? before),
      tool: undefined,
      jsonOutput,
    };
  }
  throw new UsageError(
    'approvals: give list, revoke <server> [<tool>], trust <server> or distrust <server> (see toolwire help approvals)',
  );
}

/** `toolwire approvals` */
export async function approvalsCommand(
  command: ApprovalsCommand,
  io: { stdout: Pick<Writable, 'write'> },
  file: ApprovalsFile = new ApprovalsFile(),
): Promise<number> {
  if (command.action === 'trust' || command.action === 'distrust') {
    const server = command.server as string;
    const trusted = command.action === 'trust';
    const changed = await file.setTrusted(server, trusted);
    if (command.jsonOutput) io.stdout.write(terminalJson({ server, trusted, changed }, 2) + '\n');
    else
      io.stdout.write(
        trusted
          ? `${changed ? 'Trusting' : 'Already trusting'} the annotations of ${terminalLine(server)}: its read-only tools run without asking (unless one becomes read-only).\n`
          : `${changed ? 'No longer trusting' : 'Not trusting'} the annotations of ${terminalLine(server)}: every call is confirmed unless allowed always.\n`,
      );
    return EXIT.ok;
  }
  if (command.action === 'list') {
    const { servers, trusted = {} } = await file.read();
    if (command.jsonOutput) {
      io.stdout.write(terminalJson({ file: file.path, servers, trusted }, 2) + '\n');
      return EXIT.ok;
    }
    const lines: string[] = [];
    for (const server of Object.keys(trusted))
      if (!(server in servers)) lines.push(`${terminalLine(server)}  (annotations trusted)`);
    for (const [server, tools] of Object.entries(servers)) {
      lines.push(`${terminalLine(server)}${trusted[server] ? '  (annotations trusted)' : ''}`);
      for (const [tool, approved] of Object.entries(tools))
        lines.push(
          `  ${terminalLine(tool)}  allowed ${terminalLine(approved.approvedAt)}  sha256:${terminalLine(approved.fingerprint.slice(0, 16))}`,
        );
    }
    io.stdout.write(lines.length > 0 ? `${lines.join('\n')}\n` : `No approvals in ${file.path}.\n`);
    return EXIT.ok;
  }
  const server = command.server as string;
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

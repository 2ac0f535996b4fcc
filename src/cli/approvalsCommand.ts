/**
 * @module `toolwire approvals list`, `revoke <server> [<tool>]`, `trust <server>` and
 * `distrust <server>`: what the user allowed always, per server (its identity: the URL, or the
 * real paths of what it runs) and tool, with the definition's fingerprint and when; taking an
 * approval back, so the next call asks again; and which servers' annotations the person trusts
 * (read-only tools of those run unasked, as with `call --trust-annotations`).
 */
import type { Writable } from 'node:stream';
import type { ApprovalsCommand } from './approvalsArgs.js';
import { ApprovalsFile } from './approvalsFile.js';
import { EXIT } from './failure.js';
import { terminalJson, terminalLine } from './terminalText.js';

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

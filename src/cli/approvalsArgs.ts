/**
 * @module The words of `toolwire approvals list|revoke|trust|distrust`. Apart from
 * approvalsCommand.ts so that parsing the command line does not load the approvals file.
 */
import { UsageError } from './argValues.js';
import { identityOf } from './serverIdentity.js';

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

/**
 * @module `--audit <file>`: one JSON line per audit event of the client (tools exposed, a
 * definition changed, a call requested with its arguments, the decision, the outcome and its
 * duration), with the server as the user named it. The file is opened for appending, created
 * readable by the user only, and written synchronously so that nothing is lost when the program
 * ends (Ctrl-C included).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { AuditSink } from '../client.js';
import { UsageError } from './argValues.js';

/** An open audit log. */
export interface AuditLog {
  readonly sink: AuditSink;
  close(): void;
}

/** Opens (creating) the audit log at `path`; a file that cannot be opened is a usage error. */
export function openAuditLog(path: string, server: string): AuditLog {
  let fd: number;
  try {
    fd = openSync(path, 'a', 0o600);
  } catch (error) {
    throw new UsageError(
      `--audit: cannot open ${path} for appending (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  let open = true;
  return {
    sink: (event) => {
      if (open) writeSync(fd, `${JSON.stringify({ ...event, target: server })}\n`);
    },
    close: () => {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}

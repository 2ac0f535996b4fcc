/**
 * @module `--audit <file>`: one JSON line per audit event of the client (tools exposed, a
 * definition changed, a call requested with its arguments, the decision, the outcome and its
 * duration), with the server's identity. The file is opened for appending, created readable by
 * the user only (an existing file others can read or write is refused: arguments can be private),
 * and written synchronously so that nothing is lost when the program ends (Ctrl-C included).
 */
import { closeSync, writeSync } from 'node:fs';
import type { AuditSink } from '../client.js';
import { UsageError } from './argValues.js';
import { openPrivateAppend } from './privateFile.js';

/** An open audit log. */
export interface AuditLog {
  readonly sink: AuditSink;
  close(): void;
}

/** Opens (creating) the audit log at `path`; a file that cannot be opened is a usage error. */
export function openAuditLog(path: string, server: string): AuditLog {
  let fd: number;
  try {
    fd = openPrivateAppend(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === undefined
        ? `--audit: ${(error as Error).message}`
        : `--audit: cannot open ${path} for appending (${code})`,
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

/**
 * @module {@link HistoryFile}: the console's history kept on disk as JSON lines, one audit event
 * a line with the server as the user named it (`target`), as `--audit` writes them for `call`.
 * By default `console-history.jsonl` beside the credentials file, created readable by the user
 * only (an existing file others can read or write is refused), in a folder only the user can enter; appended synchronously, so that nothing is lost when
 * the console ends. A new console reads the newest events back, so the history survives restarts.
 * The default file, grown past its limit, is moved aside to `<name>.1` first (one generation
 * kept); an audit file the user named is never moved: what keeps it is theirs to decide.
 */
import { closeSync, mkdirSync, readSync, renameSync, statSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AuditEvent } from '../../client.js';
import { defaultCredentialsPath } from '../../oauthClient/credentialsFile.js';
import { UsageError } from '../argValues.js';
import { openPrivateAppend } from '../privateFile.js';

/** One line of the file. */
export type HistoryLine = AuditEvent & { at: string; target: string };

/** Where the console keeps its history unless told otherwise. */
export function defaultHistoryPath(): string {
  return join(dirname(defaultCredentialsPath()), 'console-history.jsonl');
}

/** A file past this size is moved aside when a console starts. */
const ROTATE_BYTES = 16 * 1024 * 1024;
/** How much of the file's end is read back. */
const TAIL_BYTES = 2 * 1024 * 1024;

/** Whether a parsed line is an audit event this console can show. */
function isHistoryLine(value: unknown): value is HistoryLine {
  if (typeof value !== 'object' || value === null) return false;
  const { type, at, target } = value as Record<string, unknown>;
  return typeof type === 'string' && typeof at === 'string' && typeof target === 'string';
}

/** How a history file is kept. */
export interface HistoryFileOptions {
  /** Move a file past its limit aside when opened (the default file). Default: false. */
  rotate?: boolean;
  /** Show its newest events again (false: written only, as with `--no-history`). Default: true. */
  readBack?: boolean;
}

/** The console's history file. */
export class HistoryFile {
  private fd: number | undefined;
  private readonly readBack: boolean;

  /** Opens (creating) the file at `path`; one that cannot be opened is a usage error. */
  constructor(
    readonly path: string,
    options: HistoryFileOptions = {},
  ) {
    this.readBack = options.readBack ?? true;
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      if (options.rotate === true && (statOrUndefined(path)?.size ?? 0) > ROTATE_BYTES)
        renameSync(path, `${path}.1`);
      this.fd = openPrivateAppend(path, 'a+');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(
        `cannot keep the console's history in ${code === undefined ? (error as Error).message : `${path} (${code})`}; --audit names another file, --no-history keeps none`,
      );
    }
  }

  /** The newest `max` events of the file, oldest first; lines it cannot read are passed over. */
  recent(max: number): HistoryLine[] {
    if (this.fd === undefined || !this.readBack) return [];
    const size = statOrUndefined(this.path)?.size ?? 0;
    const start = Math.max(0, size - TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    const read = readSync(this.fd, buffer, 0, buffer.length, start);
    const lines = buffer.subarray(0, read).toString('utf8').split('\n');
    // A read that starts inside the file begins inside a line.
    if (start > 0) lines.shift();
    const events: HistoryLine[] = [];
    for (const line of lines.slice(-max - 1)) {
      if (line.trim() === '') continue;
      try {
        const parsed: unknown = JSON.parse(line);
        if (isHistoryLine(parsed)) events.push(parsed);
      } catch {
        // a torn or foreign line
      }
    }
    return events.slice(-max);
  }

  /** Appends one event. */
  append(event: AuditEvent & { at: string }, target: string): void {
    if (this.fd !== undefined) writeSync(this.fd, `${JSON.stringify({ ...event, target })}\n`);
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}

function statOrUndefined(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

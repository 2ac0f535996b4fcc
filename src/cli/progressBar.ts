/**
 * @module A one-line progress bar on a terminal (stderr), redrawn in place. The server's progress
 * message is made safe for the terminal and kept on the line.
 */
import { terminalLine } from './terminalText.js';

/** What the bar draws on. */
export interface BarStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/** Returns a progress callback and a `done` that clears the line; both are no-ops off a terminal. */
export function progressBar(stream: BarStream): {
  update: (p: { progress: number; total?: number; message?: string }) => void;
  done: () => void;
} {
  if (!stream.isTTY) return { update: () => {}, done: () => {} };
  let drawn = false;
  const width = 30;
  return {
    update({ progress, total, message }) {
      const label = message ? ` ${terminalLine(message)}` : '';
      let line: string;
      if (total !== undefined && total > 0) {
        const ratio = Math.max(0, Math.min(1, progress / total));
        const filled = Math.round(ratio * width);
        line = `[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${Math.round(ratio * 100)}%${label}`;
      } else {
        line = `[progress ${progress}]${label}`;
      }
      // Some terminals (and pseudo-terminals without a size) report 0 columns.
      const columns = stream.columns || 80;
      stream.write(
        `\r\x1b[2K${Array.from(line)
          .slice(0, columns - 1)
          .join('')}`,
      );
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\r\x1b[2K');
    },
  };
}

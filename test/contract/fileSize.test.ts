// No source file of src/ over 500 lines (STYLE.md §3, issue 21): one concept per file, and a
// file that grows past that is two concepts. Tests are exempt; eslint's max-lines (600 non-blank,
// non-comment lines) is the looser editor-time hint, this is the rule.
import { describe, expect, it } from 'vitest';
import { sourceFiles, type SourceFile } from './sourceLines.js';

const MAX_LINES = 500;

/** `path: N lines` for each file over the limit, longest first. */
function oversized(files: readonly SourceFile[]): string[] {
  return files
    .map((file) => ({ path: file.path, lines: file.text.split('\n').length }))
    .filter((file) => file.lines > MAX_LINES)
    .sort((a, b) => b.lines - a.lines)
    .map((file) => `${file.path}: ${file.lines} lines`);
}

describe('no source file over 500 lines', () => {
  it('catches a planted long file, and lets one at the limit pass', () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `const x${i} = ${i};`);
    const planted = [
      { path: 'server/long.ts', text: lines(501).join('\n') },
      { path: 'server/atLimit.ts', text: lines(500).join('\n') },
    ];
    expect(oversized(planted)).toEqual(['server/long.ts: 501 lines']);
  });

  it('src/ holds no non-test source file over 500 lines', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(oversized(files)).toEqual([]);
  });
});

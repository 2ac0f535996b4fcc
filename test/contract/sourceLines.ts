// The non-test source files of src/ and the lines of them that match a pattern: what the guard
// rail tests (methodNames, eraKnowledge, methodSwitch, fileSize) read. Read from the files
// themselves, so the rails hold whatever the lint configuration says.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** A source file: its path below src/ (with `/`) and its text. */
export interface SourceFile {
  readonly path: string;
  readonly text: string;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Every non-test `.ts`/`.tsx` file under src/. */
export function sourceFiles(): SourceFile[] {
  return walk(SRC).map((file) => ({
    path: relative(SRC, file).split(sep).join('/'),
    text: readFileSync(file, 'utf8'),
  }));
}

/** One line that matched: `path:line: text`, as the failure message prints it. */
export interface Hit {
  readonly path: string;
  readonly line: number;
  readonly text: string;
}

/** The lines of `files` (outside those `allowed` exempts) that match `pattern` (no `g` flag). */
export function hitsOf(
  files: readonly SourceFile[],
  pattern: RegExp,
  allowed: (path: string) => boolean,
): Hit[] {
  return files
    .filter((file) => !allowed(file.path))
    .flatMap((file) =>
      file.text
        .split('\n')
        .map((text, index) => ({ path: file.path, line: index + 1, text: text.trim() }))
        .filter((hit) => pattern.test(hit.text)),
    );
}

/** The hits as the lines a failure prints. */
export function report(hits: readonly Hit[]): string {
  return hits.map((hit) => `${hit.path}:${hit.line}: ${hit.text}`).join('\n');
}

/**
 * @module The manual's code blocks (README.md and the pages of docs/), for the tests that run or
 * compile them as they are written (issues 20 and 21). A block is named by an HTML comment on the
 * line before it (blank lines between allowed), such as `<!-- quick-start: tools.ts -->`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { ROOT } from './paths.js';

/** One fenced code block of a Markdown file. */
export interface CodeBlock {
  /** The fence's info string: `ts`, `ts fragment`, `sh`... */
  readonly info: string;
  /** Its first word, the language. */
  readonly lang: string;
  /** The block's lines, each ending with a newline. */
  readonly text: string;
  /** The line number (1-based) of the opening fence. */
  readonly line: number;
  /** The text of the HTML comment naming it (`quick-start: tools.ts`), if any. */
  readonly marker?: string;
}

/** The README of this repository. */
export function readme(): string {
  return readFileSync(`${ROOT}README.md`, 'utf8');
}

/** One Markdown page of the manual. */
export interface Page {
  /** Its path from the repository's root: `README.md`, `docs/server.md`. */
  readonly path: string;
  readonly text: string;
}

/** The pages of docs/ (its Markdown files, sorted), the manual the README links to. */
export function docsPages(): Page[] {
  return readdirSync(`${ROOT}docs`, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => {
      const path = `docs/${name.replaceAll('\\', '/')}`;
      return { path, text: readFileSync(`${ROOT}${path}`, 'utf8') };
    });
}

/** The whole manual: the README, then the pages of docs/. */
export function manual(): Page[] {
  return [{ path: 'README.md', text: readme() }, ...docsPages()];
}

/** The page of the manual at `path` (`docs/getting-started.md`). */
export function page(path: string): string {
  return readFileSync(`${ROOT}${path}`, 'utf8');
}

/** Every fenced code block (``` at the start of a line) of `markdown`, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const info = open[1]!.trim();
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]!);
    if (i === lines.length)
      throw new Error(`Markdown: the block at line ${start + 1} is not closed`);
    let before = start - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const marker = /^<!--\s*(.+?)\s*-->$/.exec(lines[before] ?? '')?.[1];
    blocks.push({
      info,
      lang: info.split(/\s+/)[0] ?? '',
      text: body.map((l) => `${l}\n`).join(''),
      line: start + 1,
      ...(marker !== undefined ? { marker } : {}),
    });
  }
  return blocks;
}

/** The block named by `<!-- marker -->`; throws when there is none, or more than one. */
export function markedBlock(markdown: string, marker: string): CodeBlock {
  const found = codeBlocks(markdown).filter((b) => b.marker === marker);
  if (found.length !== 1)
    throw new Error(
      `Markdown: ${found.length} code blocks marked <!-- ${marker} --> (one expected)`,
    );
  return found[0]!;
}

/** The text of the section under `## heading`, up to the next heading of level 1 or 2. */
export function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.indexOf(`## ${heading}`);
  if (start < 0) throw new Error(`Markdown: no section "## ${heading}"`);
  let fenced = false;
  let end = start + 1;
  for (; end < lines.length; end++) {
    if (lines[end]!.startsWith('```')) fenced = !fenced;
    else if (!fenced && /^#{1,2} /.test(lines[end]!)) break;
  }
  return lines.slice(start + 1, end).join('\n');
}

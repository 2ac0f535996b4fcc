/**
 * @module Type-checks the TypeScript blocks of the manual (README.md and docs/), as modules of a
 * project that installed toolwire (strict, `module` and `moduleResolution` nodenext, `toolwire`
 * resolved as the package itself, through its exports, to the built declarations):
 *
 * - a block opened with ```ts is a complete module: it must compile on its own (blocks named
 *   `<!-- quick-start: <file> -->` are compiled under that file name, beside the other blocks of
 *   their page; a block named `<!-- example: <path> -->`, a shortened form of that file of the
 *   repository, in its place, beside the files it imports);
 * - a block opened with ```ts fragment is a part of a program: it is compiled with `server` (an
 *   McpServer) and `client` (an McpClient) declared, and names it uses without defining them
 *   ("Cannot find name") are allowed; every other error counts.
 *
 * Any other info string for TypeScript fails, so no block escapes by a new spelling.
 */
import ts from 'typescript';
import { ROOT } from './paths.js';
import { codeBlocks, type CodeBlock, type Page } from './readme.js';

/** Where the blocks are (virtually) written: inside the package, so `toolwire` names itself. */
export const SNIPPETS_FOLDER = `${ROOT}.cache/readme-snippets/`;
const PRELUDE = `${SNIPPETS_FOLDER}fragment-prelude.d.ts`;
const PRELUDE_TEXT = `import type { McpClient, McpServer } from 'toolwire';

declare global {
  /** The server the text around a fragment is about. */
  const server: McpServer;
  /** A client connected to it. */
  const client: McpClient;
}
`;
/** "Cannot find name" (and its "did you mean" form): what a fragment may leave to its context. */
const UNDEFINED_NAME = new Set([2304, 2552]);

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: ['node'],
  skipLibCheck: true,
  noEmit: true,
};

/** One TypeScript block, with the (virtual or real) file it is compiled as. */
export interface Snippet {
  /** The page it is on (`README.md`, `docs/server.md`), for messages. */
  readonly page: string;
  readonly block: CodeBlock;
  readonly file: string;
  readonly fragment: boolean;
}

/** The TypeScript blocks of `page`, each with its file name; throws on an unknown info string. */
export function snippets(page: Page): Snippet[] {
  // Each page has a folder of its own, so that two pages may name a quick-start file alike.
  const folder = `${SNIPPETS_FOLDER}${page.path.replace(/\.md$/, '').replaceAll('/', '-')}/`;
  return codeBlocks(page.text)
    .filter((block) => ['ts', 'typescript', 'tsx'].includes(block.lang))
    .map((block) => {
      if (block.info !== 'ts' && block.info !== 'ts fragment')
        throw new Error(
          `${page.path} line ${block.line}: \`\`\`${block.info}: use \`\`\`ts or \`\`\`ts fragment`,
        );
      const named = /^quick-start: (\w+\.ts)$/.exec(block.marker ?? '')?.[1];
      const example = /^example: ([\w/.-]+\.ts)$/.exec(block.marker ?? '')?.[1];
      return {
        page: page.path,
        block,
        file: example ? `${ROOT}${example}` : `${folder}${named ?? `line-${block.line}.ts`}`,
        fragment: block.info === 'ts fragment',
      };
    });
}

const parsedFiles = new Map<string, ts.SourceFile>();

/** The errors of `group` compiled together (with the prelude for fragments), as readable lines. */
export function typeCheck(group: readonly Snippet[], fragments: boolean): string[] {
  const files = new Map<string, string>();
  for (const s of group) {
    if (files.has(s.file)) throw new Error(`${s.page}: two blocks are compiled as ${s.file}`);
    // Each block is a module, even one without import or export.
    files.set(s.file, `${s.block.text}export {};\n`);
  }
  if (fragments) files.set(PRELUDE, PRELUDE_TEXT);
  const host = ts.createCompilerHost(OPTIONS);
  const { fileExists, readFile, getSourceFile, directoryExists } = host;
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  host.readFile = (name) => files.get(name) ?? readFile.call(host, name);
  host.directoryExists = (name) =>
    `${name}/`.startsWith(SNIPPETS_FOLDER) || (directoryExists?.call(host, name) ?? true);
  host.getSourceFile = (name, language, ...rest) => {
    const text = files.get(name);
    if (text !== undefined) return ts.createSourceFile(name, text, language, true);
    // Declaration files (the libraries, Node's types, toolwire's) are parsed once for all checks.
    let parsed = parsedFiles.get(name);
    if (!parsed) {
      parsed = getSourceFile.call(host, name, language, ...rest);
      if (parsed) parsedFiles.set(name, parsed);
    }
    return parsed;
  };
  const program = ts.createProgram([...files.keys()], OPTIONS, host);
  const byFile = new Map(group.map((s) => [s.file, s]));
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => !(fragments && UNDEFINED_NAME.has(d.code)))
    .map((d) => {
      const snippet = d.file ? byFile.get(d.file.fileName) : undefined;
      const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      if (!snippet || d.start === undefined) return `TS${d.code}: ${message}`;
      const { line } = d.file!.getLineAndCharacterOfPosition(d.start);
      return `${snippet.page} line ${snippet.block.line + 1 + line}: TS${d.code}: ${message}`;
    });
}

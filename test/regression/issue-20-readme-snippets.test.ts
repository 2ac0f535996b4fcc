/**
 * Issue 20: README snippets that did not compile (the OAuth resource-server snippet used
 * `handler` for two things, TS2448; the Tasks snippet's handler returned nothing, TS2345). Every
 * ```ts block of the README is type-checked here, as a module of a project that installed
 * toolwire (strict, `module` and `moduleResolution` nodenext, `toolwire` resolved as the package
 * itself, through its exports, to the built declarations):
 *
 * - a block opened with ```ts is a complete module: it must compile on its own (blocks named
 *   `<!-- quick-start: <file> -->` are compiled under that file name, beside each other; a block
 *   named `<!-- example: <path> -->`, a shortened form of that file of the repository, in its
 *   place, beside the files it imports);
 * - a block opened with ```ts fragment is a part of a program: it is compiled with `server` (an
 *   McpServer) and `client` (an McpClient) declared, and names it uses without defining them
 *   ("Cannot find name") are allowed; every other error counts.
 *
 * Any other info string for TypeScript fails, so no block escapes by a new spelling.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../../src/index.js';
import { ROOT } from '../support/paths.js';
import { codeBlocks, readme, section, type CodeBlock } from '../support/readme.js';

/** Where the blocks are (virtually) written: inside the package, so `toolwire` names itself. */
const FOLDER = `${ROOT}.cache/readme-snippets/`;
const PRELUDE = `${FOLDER}fragment-prelude.d.ts`;
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

interface Snippet {
  readonly block: CodeBlock;
  readonly file: string;
  readonly fragment: boolean;
}

/** The README's TypeScript blocks, each with its file name; throws on an unknown info string. */
function snippets(): Snippet[] {
  return codeBlocks(readme())
    .filter((block) => ['ts', 'typescript', 'tsx'].includes(block.lang))
    .map((block) => {
      if (block.info !== 'ts' && block.info !== 'ts fragment')
        throw new Error(
          `README line ${block.line}: \`\`\`${block.info}: use \`\`\`ts or \`\`\`ts fragment`,
        );
      const named = /^quick-start: (\w+\.ts)$/.exec(block.marker ?? '')?.[1];
      const example = /^example: ([\w/.-]+\.ts)$/.exec(block.marker ?? '')?.[1];
      return {
        block,
        file: example ? `${ROOT}${example}` : `${FOLDER}${named ?? `line-${block.line}.ts`}`,
        fragment: block.info === 'ts fragment',
      };
    });
}

const parsedFiles = new Map<string, ts.SourceFile>();

/** The errors of `group` compiled together (with the prelude for fragments), as readable lines. */
function typeCheck(group: Snippet[], fragments: boolean): string[] {
  const files = new Map<string, string>(
    // Each block is a module, even one without import or export.
    group.map((s) => [s.file, `${s.block.text}export {};\n`]),
  );
  if (fragments) files.set(PRELUDE, PRELUDE_TEXT);
  const host = ts.createCompilerHost(OPTIONS);
  const { fileExists, readFile, getSourceFile, directoryExists } = host;
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  host.readFile = (name) => files.get(name) ?? readFile.call(host, name);
  host.directoryExists = (name) =>
    `${name}/` === FOLDER || (directoryExists?.call(host, name) ?? true);
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
      return `README line ${snippet.block.line + 1 + line}: TS${d.code}: ${message}`;
    });
}

describe('the README compiles', () => {
  const all = snippets();

  it('has TypeScript blocks, complete ones among them', () => {
    expect(all.filter((s) => !s.fragment).length).toBeGreaterThanOrEqual(6);
  });

  it('every ```ts block compiles on its own', () => {
    expect(
      typeCheck(
        all.filter((s) => !s.fragment),
        false,
      ),
    ).toEqual([]);
  }, 60_000);

  it('a block naming an example file compiles in its place', () => {
    const examples = all.filter((s) => s.file.startsWith(`${ROOT}examples/`));
    expect(examples.length).toBeGreaterThanOrEqual(1);
    for (const { file } of examples) expect(readFileSync(file, 'utf8')).not.toBe('');
  });

  it('every ```ts fragment compiles with a server and a client declared', () => {
    expect(
      typeCheck(
        all.filter((s) => s.fragment),
        true,
      ),
    ).toEqual([]);
  }, 60_000);

  it('fails for a block that does not compile (the check checks)', () => {
    const broken = (name: string, text: string, fragment: boolean): Snippet => ({
      block: { info: fragment ? 'ts fragment' : 'ts', lang: 'ts', text, line: 1 },
      file: `${FOLDER}${name}.ts`,
      fragment,
    });
    // Issue 20's Tasks snippet, in short: a handler returning nothing.
    const voidHandler = `server.registerTool('report', {}, async () => {});\n`;
    // Issue 20's OAuth snippet, in short: a name used before its declaration.
    const early = `import { createHttpHandler } from 'toolwire/http';\nserver.registerTool('w', {}, handler);\nconst handler = createHttpHandler(server, {});\n`;
    const asFragments = typeCheck(
      [broken('void-handler', voidHandler, true), broken('used-early', early, true)],
      true,
    ).join('\n');
    expect(asFragments).toMatch(/TS2345/);
    expect(asFragments).toMatch(/TS2448/);
    // Complete blocks get no declarations: `server` must be defined.
    expect(typeCheck([broken('complete', voidHandler, false)], false).join('\n')).toMatch(/TS2304/);
  }, 60_000);
});

describe('the README says what the code needs', () => {
  it('Zod 4.2 or later: a zod schema without JSON Schema (as before 4.2) is refused saying so', () => {
    const text = readme();
    expect(text).not.toMatch(/\bZod 4(?!\.2)/i);
    expect(text).toContain('Zod 4.2+');
    expect(text).toContain('zod (4.2 or later');
    // zod 4.1's schemas are Standard Schemas without `jsonSchema` (added in 4.2).
    const zod41 = {
      '~standard': { version: 1, vendor: 'zod', validate: (value: unknown) => ({ value }) },
    };
    const server = new McpServer({ name: 'zod', version: '1' });
    expect(() => server.registerTool('t', { inputSchema: zod41 as never }, () => text)).toThrow(
      'Use Zod 4.2+',
    );
  });

  it('npm test installs Debian packages when missing: as root, and which ones', () => {
    const twoCommands = section(readme(), 'Two commands').replaceAll(/\s+/g, ' ');
    const installs = [
      readFileSync(`${ROOT}scripts/redisServer.mjs`, 'utf8'),
      readFileSync(`${ROOT}test/support/browser.ts`, 'utf8'),
    ].map((source) => /'install', '-y', [^\]]*'([\w-]+)'\]/.exec(source)?.[1]);
    expect(installs).toEqual(['redis-server', 'chromium']);
    for (const name of installs) expect(twoCommands).toContain(`\`${name}\``);
    expect(twoCommands).toContain('with `apt-get`, which needs root');
  });
});

/**
 * Issue 20: README snippets that did not compile (the OAuth resource-server snippet used
 * `handler` for two things, TS2448; the Tasks snippet's handler returned nothing, TS2345). Every
 * ```ts block of the README is type-checked here (how: test/support/snippets.ts); the pages of
 * docs/, where those snippets live since issue 21, are checked by test/contract/docsSnippets.test.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../../src/index.js';
import { ROOT } from '../support/paths.js';
import { manual, readme, section } from '../support/readme.js';
import { SNIPPETS_FOLDER, snippets, typeCheck, type Snippet } from '../support/snippets.js';

describe('the README compiles', () => {
  const all = snippets({ path: 'README.md', text: readme() });

  it('has TypeScript blocks, complete ones among them (the quick start)', () => {
    expect(all.filter((s) => !s.fragment).length).toBeGreaterThanOrEqual(3);
  });

  it('every ```ts block compiles on its own', () => {
    expect(
      typeCheck(
        all.filter((s) => !s.fragment),
        false,
      ),
    ).toEqual([]);
  }, 60_000);

  it('every ```ts fragment compiles with a server and a client declared', () => {
    const fragments = all.filter((s) => s.fragment);
    expect(fragments.length === 0 ? [] : typeCheck(fragments, true)).toEqual([]);
  }, 60_000);

  it('fails for a block that does not compile (the check checks)', () => {
    const broken = (name: string, text: string, fragment: boolean): Snippet => ({
      page: 'broken.md',
      block: { info: fragment ? 'ts fragment' : 'ts', lang: 'ts', text, line: 1 },
      file: `${SNIPPETS_FOLDER}${name}.ts`,
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

describe('the manual says what the code needs', () => {
  it('Zod 4.2 or later: a zod schema without JSON Schema (as before 4.2) is refused saying so', () => {
    const text = manual()
      .map((page) => page.text)
      .join('\n');
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

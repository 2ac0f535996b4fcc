/**
 * Issue 21: the manual is docs/, and the README a short front page (at most 300 lines) that
 * links into it. These guard rails keep it so: the index links every page and every page it
 * links exists; every relative link of the README and of docs/ reaches a file, and its anchor a
 * heading of that file; the quick start of Getting started is the README's, block for block; the
 * JSON blocks parse; no code block installs or runs toolwire by name from the registry, where it
 * is not published.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';
import { codeBlocks, docsPages, manual, markedBlock, page, readme } from '../support/readme.js';

/** The pages the manual must have (issue 21), besides its index. */
const PAGES = [
  'getting-started',
  'server',
  'client',
  'cli',
  'console',
  'http',
  'authorization',
  'tasks',
  'eras',
  'revisions',
  'limits',
  'errors',
  'testing',
  'benchmark',
  'opentelemetry',
  'architecture',
].map((name) => `docs/${name}.md`);

/** `markdown` without its fenced blocks (where `# x` is no heading, `[x](y)` no link). */
const withoutFences = (markdown: string) => markdown.replaceAll(/^```[^\n]*\n[\s\S]*?^```$/gm, '');

/** `markdown` without its fenced blocks and code spans, where `[x](y)` is not a link. */
const prose = (markdown: string) => withoutFences(markdown).replaceAll(/(`+)[\s\S]*?\1/g, '');

/** The relative link targets of `markdown`: Markdown links and images, and HTML `src`/`href`. */
function relativeLinks(markdown: string): string[] {
  const text = prose(markdown);
  const targets = [
    ...[...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!),
    ...[...text.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!),
  ];
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** The anchors GitHub gives the headings of `markdown` (lower case, punctuation dropped). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of withoutFences(markdown).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const plain = heading!
      .replaceAll(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replaceAll('`', '')
      .toLowerCase();
    const slug = plain.replaceAll(/[^\p{L}\p{N}\p{M}\s_-]/gu, '').replaceAll(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

describe('the README', () => {
  it('is at most 300 lines', () => {
    expect(readme().split('\n').length).toBeLessThanOrEqual(300);
  });

  it('links the manual', () => {
    expect(relativeLinks(readme())).toContain('docs/README.md');
  });
});

describe('the index of docs/', () => {
  const index = page('docs/README.md');
  const linked = relativeLinks(index).map((target) =>
    normalize(join('docs', target.split('#')[0]!)),
  );

  it('links every page the manual must have, and every page of docs/', () => {
    for (const path of PAGES) expect(linked, path).toContain(path);
    for (const { path } of docsPages())
      if (path !== 'docs/README.md') expect(linked, path).toContain(path);
  });

  it('links only pages that exist (but the architecture page, written last)', () => {
    for (const path of linked)
      if (path !== 'docs/architecture.md') expect(existsSync(`${ROOT}${path}`), path).toBe(true);
  });
});

describe('every relative link of the manual', () => {
  it.each(manual().map((p) => [p.path, p.text] as const))(
    '%s: reaches a file, and a heading of it',
    (path, text) => {
      const broken: string[] = [];
      for (const target of relativeLinks(text)) {
        const [file, anchor] = target.split('#') as [string, string | undefined];
        const resolved = file === '' ? path : normalize(join(dirname(path), file));
        if (resolved === 'docs/architecture.md' && !existsSync(`${ROOT}${resolved}`)) continue;
        if (relative(ROOT, join(ROOT, resolved)).startsWith('..') || !existsSync(ROOT + resolved)) {
          broken.push(`${target}: no file ${resolved}`);
          continue;
        }
        if (anchor === undefined || statSync(ROOT + resolved).isDirectory()) continue;
        if (!resolved.endsWith('.md')) broken.push(`${target}: an anchor in a file not Markdown`);
        else if (!anchors(page(resolved)).has(anchor))
          broken.push(`${target}: no heading #${anchor} in ${resolved}`);
      }
      expect(broken).toEqual([]);
    },
  );

  it('is checked: a link to a missing file or heading is found', () => {
    const text = '# A `b` (c)\n\n[x](missing.md) [y](#a-b-c) [z](#nope) `[w](ignored.md)`\n';
    expect(relativeLinks(text)).toEqual(['missing.md', '#a-b-c', '#nope']);
    expect([...anchors(text)]).toEqual(['a-b-c']);
    expect([...anchors('## Testing your tools (`toolwire/testing`)\n## X\n## X\n')]).toEqual([
      'testing-your-tools-toolwiretesting',
      'x',
      'x-1',
    ]);
  });
});

describe('Getting started', () => {
  it('has the quick start of the README, block for block', () => {
    const guide = page('docs/getting-started.md');
    for (const name of ['setup.sh', 'tools.ts', 'try.sh', 'server.ts', 'client.ts', 'run.sh'])
      expect(markedBlock(guide, `quick-start: ${name}`).text, name).toBe(
        markedBlock(readme(), `quick-start: ${name}`).text,
      );
    expect(markedBlock(guide, 'install: pack').text).toBe(
      markedBlock(readme(), 'install: pack').text,
    );
  });
});

describe('the JSON blocks of the manual', () => {
  it('parse (host configurations, config.json)', () => {
    const json = manual().flatMap(({ path, text }) =>
      codeBlocks(text)
        .filter((block) => block.lang === 'json')
        .map((block) => ({ where: `${path} line ${block.line}`, text: block.text })),
    );
    expect(json.length).toBeGreaterThanOrEqual(4);
    for (const { where, text } of json)
      expect(() => JSON.parse(text) as unknown, where).not.toThrow();
  });
});

describe('no code block of the manual', () => {
  it('installs or runs the name toolwire from the registry', () => {
    for (const { path, text } of manual()) {
      const code = codeBlocks(text)
        .map((block) => block.text)
        .join('');
      expect(code, path).not.toMatch(/npm (install|i|add)( -g)? toolwire\b(?![-/])/);
      expect(code, path).not.toMatch(/npx (-y |--yes )toolwire/);
    }
  });
});

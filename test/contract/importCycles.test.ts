// No file of src/ imports itself back through others (STYLE.md §3's guard rails), type-only
// imports included: a cycle of types today is a cycle of values after the next refactor, and it
// decides the order in which a bundle evaluates modules. Read from the import statements, so
// nobody can quietly turn it off.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** `import … from`, `import type … from`, `export … from`, `import '…'` and `import('…')`. */
const IMPORT =
  /^\s*(?:import|export)\s+(?:type\s+)?[^'";]*?\s*from\s+'([^']+)'|^\s*import\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/gm;

/** The relative specifiers of a file's imports. */
function specifiersOf(text: string): string[] {
  return [...text.matchAll(IMPORT)]
    .map((m) => m[1] ?? m[2] ?? m[3] ?? '')
    .filter((spec) => spec.startsWith('.'));
}

/** The file a relative specifier names (`./a.js` is `a.ts`, `a.tsx` or `a/index.ts`). */
function resolveSpecifier(
  from: string,
  spec: string,
  files: ReadonlySet<string>,
): string | undefined {
  const base = resolve(dirname(from), spec).replace(/\.js$/, '');
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((f) => files.has(f));
}

/** The strongly connected components of more than one file (Tarjan), and files importing themselves. */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.includes(node)) cycles.push(component.reverse());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

describe('import cycles', () => {
  it('the detector finds a cycle of three, a file importing itself, and none in a chain', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', ['d']],
      ['e', ['a']],
    ]);
    expect(
      cyclesOf(graph)
        .map((c) => c.sort())
        .sort(),
    ).toEqual([['a', 'b', 'c'], ['d']]);
    expect(
      cyclesOf(
        new Map([
          ['x', ['y']],
          ['y', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('reads type-only, re-export, side-effect, dynamic and multi-line imports', () => {
    const text = [
      "import type { A } from './a.js';",
      "export { B } from '../b.js';",
      "import './c.js';",
      "const d = await import('./d.js');",
      'import {',
      '  e,',
      '  type E,',
      "} from './e.js';",
      "import { f } from 'package';",
      " * import { g } from './not-code.js';",
    ].join('\n');
    expect(specifiersOf(text)).toEqual(['./a.js', '../b.js', './c.js', './d.js', './e.js']);
  });

  it('no file of src/ imports itself back, type-only imports included', () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(100);
    const known = new Set(files);
    const graph = new Map(
      files.map((file) => [
        file,
        specifiersOf(readFileSync(file, 'utf8')).flatMap((spec) => {
          const to = resolveSpecifier(file, spec, known);
          return to ? [to] : [];
        }),
      ]),
    );
    const cycles = cyclesOf(graph).map((c) => c.map((f) => relative(SRC, f)).join(' -> '));
    expect(cycles).toEqual([]);
  });
});

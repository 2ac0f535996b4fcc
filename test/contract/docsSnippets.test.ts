/**
 * Issue 21: the manual moved from the README into docs/, and every code block there stays
 * type-checked, as the README's are (test/regression/issue-20-readme-snippets.test.ts): a ```ts
 * block compiles on its own, a ```ts fragment with `server` and `client` declared, and a block
 * naming a file of the repository (`<!-- example: examples/... -->`) in the place of that file.
 * How they are compiled: test/support/snippets.ts.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';
import { docsPages } from '../support/readme.js';
import { snippets, typeCheck } from '../support/snippets.js';

describe('the pages of docs/ compile', () => {
  const all = docsPages().flatMap(snippets);

  it('have TypeScript blocks, complete ones and fragments', () => {
    expect(all.filter((s) => !s.fragment).length).toBeGreaterThanOrEqual(6);
    expect(all.filter((s) => s.fragment).length).toBeGreaterThanOrEqual(3);
  });

  it('every ```ts block compiles on its own', () => {
    expect(
      typeCheck(
        all.filter((s) => !s.fragment),
        false,
      ),
    ).toEqual([]);
  }, 60_000);

  it('a block naming a file of the repository compiles in its place', () => {
    const examples = all.filter((s) => !s.file.startsWith(`${ROOT}.cache/`));
    expect(examples.length).toBeGreaterThanOrEqual(1);
    for (const { file } of examples) expect(existsSync(file), file).toBe(true);
  });

  it('every ```ts fragment compiles with a server and a client declared', () => {
    expect(
      typeCheck(
        all.filter((s) => s.fragment),
        true,
      ),
    ).toEqual([]);
  }, 60_000);
});

/**
 * @module The library's declarations are written file by file (scripts/declarations.mjs, issue
 * 21): src/ states the type of every export (`isolatedDeclarations`), so no program with the
 * imports resolved is needed. Checked here on a small project in a temporary folder: the
 * declarations and their maps are written as tsc writes them, and an export whose type is left
 * to inference fails the build with TypeScript's message, naming the file and line.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error the build scripts are plain JavaScript, without declarations
import { emitDeclarations } from '../../scripts/declarations.mjs';
import { ROOT } from '../support/paths.js';

const emit = emitDeclarations as (root: string, tsconfig: string) => void;
let dir = '';

/** A project with a tsconfig like tsconfig.build.json and these sources under src/. */
function project(sources: Record<string, string>): string {
  dir = mkdtempSync(join(tmpdir(), 'toolwire-declarations-'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        rootDir: 'src',
        outDir: 'dist',
        declaration: true,
        declarationMap: true,
        emitDeclarationOnly: true,
        noCheck: true,
        isolatedDeclarations: true,
      },
      include: ['src'],
    }),
  );
  for (const [name, text] of Object.entries(sources)) writeFileSync(join(dir, 'src', name), text);
  return dir;
}

afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

describe('the declarations, file by file', () => {
  it('writes each declaration and its map, imports kept as written', () => {
    const root = project({
      'a.ts':
        "import type { B } from './b.js';\nexport function f(b: B): string {\n  return b.x;\n}\n",
      'b.ts': 'export interface B {\n  x: string;\n}\nexport const LIMIT: number = 4 * 1024;\n',
    });
    emitUsing(root);
    expect(readFileSync(join(dir, 'dist/a.d.ts'), 'utf8')).toBe(
      "import type { B } from './b.js';\nexport declare function f(b: B): string;\n//# sourceMappingURL=a.d.ts.map",
    );
    expect(readFileSync(join(dir, 'dist/b.d.ts'), 'utf8')).toContain(
      'export declare const LIMIT: number;',
    );
    const map = JSON.parse(readFileSync(join(dir, 'dist/a.d.ts.map'), 'utf8')) as {
      sources: string[];
    };
    expect(map.sources).toEqual(['../src/a.ts']);
  });

  it('fails, naming the file and what to annotate, when an export is left to inference', () => {
    const root = project({ 'c.ts': 'export const SIZES = [1, 2].map(String);\n' });
    expect(() => emitUsing(root)).toThrow(/src\/c\.ts\(1,14\).*TS9010/s);
  });
});

/** Runs the build's emitter on the project, with the repository's TypeScript. */
function emitUsing(project: string): void {
  emit(ROOT, join(project, 'tsconfig.json'));
}

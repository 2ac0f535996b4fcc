// File names say what a file holds in one word or a camelCase phrase (`serverSession.ts`,
// `noArguments.ts`); regression tests are named after their issue, in kebab case
// (`test/regression/issue-8-build-once.test.ts`). The part before the first dot is checked, so
// `foo.test.ts` and `foo.d.ts` are named by `foo`. Checked here rather than by an ESLint plugin: the
// one rule was all the project used of eslint-plugin-unicorn, and its ~1,300 installed files cost
// every `npm ci` and every install from git.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';
/** The folders of TypeScript written here (not installed, built or generated). */
const FOLDERS = ['src', 'test', 'examples', 'bench', 'scripts'];

const CAMEL_CASE = /^[a-z][a-zA-Z0-9]*$/;
const KEBAB_CASE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Every `.ts`/`.tsx` file below `dir`, as a path relative to the repository with `/`. */
function typeScriptFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return typeScriptFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The files of `paths` whose names break the convention, each with the case it should be in. */
function misnamed(paths: readonly string[]): string[] {
  return paths.flatMap((path) => {
    const name = path.slice(path.lastIndexOf('/') + 1).split('.')[0] ?? '';
    const regression = path.startsWith('test/regression/');
    const ok = (regression ? KEBAB_CASE : CAMEL_CASE).test(name);
    return ok ? [] : [`${path}: not ${regression ? 'kebab-case' : 'camelCase'}`];
  });
}

describe('file names', () => {
  it('catches planted names in the wrong case, and passes the right ones', () => {
    expect(
      misnamed([
        'src/server/server_session.ts',
        'src/server/ServerSession.ts',
        'src/server/server-session.ts',
        'test/regression/issue_8_build.test.ts',
        'test/regression/issue-8-buildOnce.test.ts',
        'src/server/serverSession.ts',
        'src/server/noArguments.test.ts',
        'src/cli/console/ui/app.tsx',
        'test/regression/issue-8-build-once.test.ts',
      ]),
    ).toEqual([
      'src/server/server_session.ts: not camelCase',
      'src/server/ServerSession.ts: not camelCase',
      'src/server/server-session.ts: not camelCase',
      'test/regression/issue_8_build.test.ts: not kebab-case',
      'test/regression/issue-8-buildOnce.test.ts: not kebab-case',
    ]);
  });

  it('every TypeScript file of the repository is named by the convention', () => {
    const files = FOLDERS.flatMap(typeScriptFiles);
    expect(files.length).toBeGreaterThan(500);
    expect(files.filter((f) => f.startsWith('test/regression/')).length).toBeGreaterThan(50);
    expect(misnamed(files)).toEqual([]);
  });
});

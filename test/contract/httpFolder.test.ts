// The HTTP transports stay split (STYLE.md §3, issue 21): server/, client/ and shared/ pieces,
// at most a few loose files beside them, and the OAuth client outside (src/oauthClient/, above
// the transports: the layering test checks that they never import it).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HTTP = fileURLToPath(new URL('../../src/transports/http/', import.meta.url));

function allPaths(dir: string, prefix = ''): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory()
      ? allPaths(path, `${prefix}${name}/`)
      : [`${prefix}${name}`];
  });
}

function entries(dir: string): { folders: string[]; files: string[] } {
  const names = readdirSync(dir);
  return {
    // A folder git left empty after a move (no files) is not part of the tree.
    folders: names.filter(
      (n) => statSync(join(dir, n)).isDirectory() && allPaths(join(dir, n)).length > 0,
    ),
    files: names.filter((n) => /\.tsx?$/.test(n) && !/\.test\.tsx?$/.test(n)),
  };
}

describe('src/transports/http/', () => {
  const { folders, files } = entries(HTTP);

  it('holds at most 3 loose source files', () => {
    expect(files.length, files.join(', ')).toBeLessThanOrEqual(3);
  });

  it('is split into server/, client/ and shared/ only', () => {
    expect(folders.sort()).toEqual(['client', 'server', 'shared']);
  });

  it('holds no part of the OAuth client (it lives in src/oauthClient/)', () => {
    expect(allPaths(HTTP).filter((path) => /oauth/i.test(path))).toEqual([]);
  });
});

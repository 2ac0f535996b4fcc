/**
 * Issue 11: `jose` is an optional peer dependency of toolwire, needed only by the JWT verifier:
 * the built library imports it dynamically, in one place, so importing toolwire/http (or
 * anything else) never needs it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';

describe('jose', () => {
  it('is imported only dynamically by the built library', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory()
          ? files(join(dir, e.name))
          : e.name.endsWith('.js')
            ? [join(dir, e.name)]
            : [],
      );
    const built = files(`${ROOT}dist`).map((f) => readFileSync(f, 'utf8'));
    expect(built.some((text) => /\bfrom ["']jose["']|import ["']jose["']/.test(text))).toBe(false);
    expect(built.filter((text) => text.includes('import("jose")'))).toHaveLength(1);
  });
});

/**
 * @module The schemas toolwire/testing ships (src/testing/schemas/) are the official ones of
 * test/spec/ minus their descriptions, for exactly the revisions toolwire speaks, and they judge
 * messages as the official files do: toolwire's own tests check every message against the
 * official files, tool authors' tests against these.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without type declarations
import * as specSchemas from '../../scripts/specSchemas.mjs';
import {
  MODERN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '../../src/protocol/versions.js';
import { revisionSchema } from '../../src/testing/eras/revisionSchemas.js';
import { describeProblem } from '../../src/testing/wireViolation.js';
import { ROOT } from '../support/paths.js';
import { EXAMPLES_2025_11_25, schemaFile, validateDefinition } from '../support/specSchemas.js';

/** Every revision toolwire speaks: the schemas toolwire/testing ships. */
const REVISIONS: string[] = [...SUPPORTED_PROTOCOL_VERSIONS, ...MODERN_PROTOCOL_VERSIONS];

const SHIPPED = `${ROOT}src/testing/schemas/`;

/** What scripts/specSchemas.mjs exports. */
const { compactSchema, SHIPPED_REVISIONS, shippedText } = specSchemas as {
  compactSchema: (schema: unknown) => unknown;
  SHIPPED_REVISIONS: string[];
  shippedText: (revision: string) => string;
};

describe('the schemas toolwire/testing ships', () => {
  it('are those of the revisions toolwire speaks, with their source and licence', () => {
    expect(SHIPPED_REVISIONS).toEqual(REVISIONS);
    expect(readdirSync(SHIPPED).sort()).toEqual(
      [...REVISIONS.map((r) => `${r}.json`), 'LICENSE', 'README.md'].sort(),
    );
    expect(readFileSync(`${SHIPPED}LICENSE`, 'utf8')).toBe(
      readFileSync(`${ROOT}test/spec/LICENSE`, 'utf8'),
    );
  });

  for (const revision of REVISIONS) {
    it(`${revision}: is the official file without descriptions (node scripts/specSchemas.mjs)`, () => {
      expect(readFileSync(`${SHIPPED}${revision}.json`, 'utf8')).toBe(shippedText(revision));
    });
  }

  it('leaves out descriptions only: a property named "description" stays', () => {
    const official = JSON.parse(readFileSync(schemaFile('2025-06-18'), 'utf8')) as Record<
      string,
      Record<string, { description?: string; properties?: Record<string, unknown> }>
    >;
    const tool = official['definitions']?.['Tool'];
    expect(tool?.description).toBeDefined();
    const compact = compactSchema(official) as typeof official;
    const shippedTool = compact['definitions']?.['Tool'];
    expect(shippedTool?.description).toBeUndefined();
    expect(Object.keys(shippedTool?.properties ?? {})).toEqual(Object.keys(tool?.properties ?? {}));
    expect(shippedTool?.properties?.['description']).toEqual({ type: 'string' });
  });

  it('judge the official examples as the official files do', async () => {
    const schema = await revisionSchema('2025-11-25');
    let checked = 0;
    for (const type of readdirSync(EXAMPLES_2025_11_25)) {
      if (!schema.has(type)) continue;
      for (const file of readdirSync(`${EXAMPLES_2025_11_25}/${type}`)) {
        const example = JSON.parse(
          readFileSync(`${EXAMPLES_2025_11_25}/${type}/${file}`, 'utf8'),
        ) as unknown;
        const shipped = schema.check(type, example).map(describeProblem);
        expect(shipped, `${type}/${file}`).toEqual(validateDefinition('2025-11-25', type, example));
        expect(shipped, `${type}/${file}`).toEqual([]);
        // And a field the example's type does not define fails both the same way.
        if (typeof example === 'object' && example !== null && !Array.isArray(example)) {
          const extended = { ...example, notInTheSpec: true };
          const problems = schema.check(type, extended).map(describeProblem);
          expect(problems).toEqual(validateDefinition('2025-11-25', type, extended));
        }
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});

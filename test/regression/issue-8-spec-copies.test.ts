/**
 * @module Issue 8: the official JSON Schemas the tests validate against are the repository's own
 * copies (test/spec/), and the schema module reads nothing until a schema is first needed (every
 * test file imports it through the wire-validation setup file).
 */
import { readFileSync } from 'node:fs';
import type * as NodeFs from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../../src/protocol/versions.js';
import { ROOT } from '../support/paths.js';

describe('issue 8: official schemas come from the repository', () => {
  it('reads each revision schema from test/spec/<revision>/schema.json', async () => {
    const { EXAMPLES_2025_11_25, schemaFile } = await import('../support/specSchemas.js');
    expect(EXAMPLES_2025_11_25).toBe(`${ROOT}test/spec/2025-11-25/examples`);
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      expect(schemaFile(version)).toBe(`${ROOT}test/spec/${version}/schema.json`);
      const schema = JSON.parse(readFileSync(schemaFile(version), 'utf8')) as Record<
        string,
        unknown
      >;
      expect(String(schema['$schema']), version).toMatch(/json-schema\.org/);
    }
  });

  it('touches no file when imported, and reads the schema on first use', async () => {
    const calls: string[] = [];
    vi.resetModules();
    vi.doMock('node:fs', async (importOriginal) => {
      const fs = await importOriginal<typeof NodeFs>();
      const counted = Object.fromEntries(
        Object.entries(fs).map(([name, value]) => [
          name,
          typeof value === 'function'
            ? (...args: unknown[]) => {
                calls.push(`${name}(${String(args[0])})`);
                return (value as (...a: unknown[]) => unknown)(...args);
              }
            : value,
        ]),
      );
      return { ...counted, default: counted };
    });
    try {
      const schemas = await import('../support/specSchemas.js');
      expect(calls, 'file system calls while importing').toEqual([]);
      expect(schemas.hasDefinition('2025-06-18', 'Tool')).toBe(true);
      expect(calls).toEqual([`readFileSync(${ROOT}test/spec/2025-06-18/schema.json)`]);
    } finally {
      vi.doUnmock('node:fs');
      vi.resetModules();
    }
  });
});

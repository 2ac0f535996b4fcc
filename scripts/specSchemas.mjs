// Writes the schemas toolwire/testing ships, src/testing/schemas/<revision>.json: the official
// JSON Schema of each revision toolwire speaks (the copies in test/spec/<revision>/schema.json),
// without the `description` annotations and the whitespace, which no validation reads (what is
// left is about a fifth of each file). test/contract/shippedSchemas.test.ts checks that the files
// are what this writes.
//
//   node scripts/specSchemas.mjs    (re)writes the files after test/spec/ changed
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The revisions toolwire's server and client speak, whose schemas ship. */
export const SHIPPED_REVISIONS = [
  '2024-11-05',
  '2025-03-26',
  '2025-06-18',
  '2025-11-25',
  '2026-07-28',
];

/** Keywords whose value maps names to schemas (the names are data, not keywords). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs']);
/** Keywords whose value is data, left as it is. */
const DATA = new Set(['const', 'enum', 'default', 'examples']);
/** Annotations no validator reads. */
const DROPPED = new Set(['description', '$comment']);

/** A schema without its annotations (a new object; `schema` is left as it is). */
export function compactSchema(schema) {
  if (Array.isArray(schema)) return schema.map(compactSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key)) continue;
    if (DATA.has(key)) out[key] = value;
    else if (SCHEMA_MAPS.has(key) && typeof value === 'object' && value !== null)
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, compactSchema(sub)]),
      );
    else out[key] = compactSchema(value);
  }
  return out;
}

/** The text of the shipped file of `revision`. */
export function shippedText(revision) {
  const official = JSON.parse(readFileSync(`${root}test/spec/${revision}/schema.json`, 'utf8'));
  return `${JSON.stringify(compactSchema(official))}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const revision of SHIPPED_REVISIONS) {
    const file = `src/testing/schemas/${revision}.json`;
    writeFileSync(`${root}${file}`, shippedText(revision));
    console.error(`[specSchemas] wrote ${file}`);
  }
}

// Writes the schemas toolwire/testing ships, src/testing/schemas/<name>.json: the official JSON
// Schema of each revision toolwire speaks and of the tasks extension it speaks on 2026-07-28
// (the copies in test/spec/<name>/schema.json), without the `description` annotations and the
// whitespace, which no validation reads (what is left is about a fifth of each file); and their
// LICENSE: the specification repository's, then the extension repository's, each as copied into
// test/spec/. test/contract/shippedSchemas.test.ts checks that the files are what this writes.
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

/** The extensions whose schemas ship: the tasks extension of 2026-07-28, as its draft. */
export const SHIPPED_EXTENSIONS = ['ext-tasks-draft'];

/**
 * Where the extension's licence starts in the shipped LICENSE (after the specification
 * repository's): the two repositories license differently, and each text is kept whole.
 */
export const EXTENSION_LICENCE_HEADING =
  'The text above is the licence of the revision schemas (<revision>.json). ext-tasks-draft.json ' +
  'comes from another repository, modelcontextprotocol/ext-tasks, and is under its licence:';

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

/** The text of the shipped file of `name` (a revision, or an extension's folder in test/spec/). */
export function shippedText(name) {
  const official = JSON.parse(readFileSync(`${root}test/spec/${name}/schema.json`, 'utf8'));
  return `${JSON.stringify(compactSchema(official))}\n`;
}

/** The text of the shipped LICENSE: the specification repository's, then the extension's. */
export function shippedLicence() {
  const spec = readFileSync(`${root}test/spec/LICENSE`, 'utf8');
  const extension = readFileSync(`${root}test/spec/ext-tasks-draft/LICENSE`, 'utf8');
  return `${spec.trimEnd()}\n\n---\n\n${EXTENSION_LICENCE_HEADING}\n\n${extension}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const name of [...SHIPPED_REVISIONS, ...SHIPPED_EXTENSIONS]) {
    const file = `src/testing/schemas/${name}.json`;
    writeFileSync(`${root}${file}`, shippedText(name));
    console.error(`[specSchemas] wrote ${file}`);
  }
  writeFileSync(`${root}src/testing/schemas/LICENSE`, shippedLicence());
  console.error('[specSchemas] wrote src/testing/schemas/LICENSE');
}

/**
 * @module The official JSON Schemas of the revisions toolwire speaks, shipped with the package
 * (schemas/: the specification's files with their descriptions left out; source, commit and
 * licence in schemas/README.md and schemas/LICENSE). Nothing is loaded until a revision is first
 * asked for: then its schema (a separate chunk of the bundle) and Ajv are imported, and the
 * strict schema is built once and kept for every later connection at that revision. In eras/:
 * the table below names every revision, and a new era's revisions are added here.
 */
import type { Revision } from '../../index.js';
import { WireSchema, type AjvClasses } from '../wireSchema.js';

type JsonModule = { default: unknown };

/** One import per revision, so that a bundler keeps each schema in a file of its own. */
const SCHEMAS: Readonly<Record<Revision, () => Promise<JsonModule>>> = {
  '2024-11-05': () => import('../schemas/2024-11-05.json', { with: { type: 'json' } }),
  '2025-03-26': () => import('../schemas/2025-03-26.json', { with: { type: 'json' } }),
  '2025-06-18': () => import('../schemas/2025-06-18.json', { with: { type: 'json' } }),
  '2025-11-25': () => import('../schemas/2025-11-25.json', { with: { type: 'json' } }),
  '2026-07-28': () => import('../schemas/2026-07-28.json', { with: { type: 'json' } }),
};

/** A CommonJS module's main export, whether it arrives as `default` or as the module itself. */
function main<T>(module: unknown): T {
  const m = module as { default?: unknown };
  return (typeof m.default === 'function' ? m.default : m) as T;
}

let ajvClasses: Promise<AjvClasses> | undefined;

/**
 * Ajv, imported on first use (a wire check is the only part of toolwire/testing needing it);
 * shared with the extensions' schemas (rev2026/tasksExtensionSchema.ts).
 */
export function loadAjv(): Promise<AjvClasses> {
  ajvClasses ??= Promise.all([
    import('ajv'),
    import('ajv/dist/2020.js'),
    import('ajv-formats'),
  ]).then(([ajv, ajv2020, formats]) => ({
    Ajv: main<AjvClasses['Ajv']>(ajv),
    Ajv2020: main<AjvClasses['Ajv2020']>(ajv2020),
    addFormats: main<AjvClasses['addFormats']>(formats),
  }));
  return ajvClasses;
}

const loaded = new Map<Revision, Promise<WireSchema>>();

/**
 * The strict schema of `revision` (see strictSchema.ts), loaded and built on the first request
 * and shared by every later one.
 */
export function revisionSchema(revision: Revision): Promise<WireSchema> {
  let schema = loaded.get(revision);
  if (schema === undefined) {
    const load = SCHEMAS[revision];
    if (load === undefined)
      return Promise.reject(new RangeError(`toolwire has no schema of revision ${revision}`));
    schema = Promise.all([load(), loadAjv()]).then(
      ([json, ajv]) =>
        new WireSchema(revision, json.default as Record<string, unknown>, { strict: true, ajv }),
    );
    // A failed load is not kept: the next connection tries again.
    schema.catch(() => loaded.delete(revision));
    loaded.set(revision, schema);
  }
  return schema;
}

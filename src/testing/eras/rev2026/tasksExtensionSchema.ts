/**
 * @module The draft JSON Schema of the tasks extension (`io.modelcontextprotocol/tasks`) that
 * 2026-07-28 connections speak, shipped as schemas/ext-tasks-draft.json (source, commit and
 * licence in schemas/README.md and schemas/LICENSE). Loaded with Ajv on the first 2026-07-28
 * connection that checks its wire, then kept for every later one.
 */
import { WireSchema } from '../../wireSchema.js';
import { loadAjv } from '../revisionSchemas.js';

let loaded: Promise<WireSchema> | undefined;

/**
 * The extension's schema as published, not strict: its results are `allOf` a `Result` and the
 * task's fields, and closing each of those objects to the properties it lists would make every
 * result fail one or the other. Built once, on the first request.
 */
export function tasksExtensionSchema(): Promise<WireSchema> {
  if (loaded === undefined) {
    const schema = Promise.all([
      // A file of its own in the bundle, as each revision's schema.
      import('../../schemas/ext-tasks-draft.json', { with: { type: 'json' } }),
      loadAjv(),
    ]).then(
      ([json, ajv]) =>
        new WireSchema('ext-tasks-draft', json.default as Record<string, unknown>, {
          strict: false,
          ajv,
        }),
    );
    // A failed load is not kept: the next connection tries again.
    schema.catch(() => {
      if (loaded === schema) loaded = undefined;
    });
    loaded = schema;
  }
  return loaded;
}

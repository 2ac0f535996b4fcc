/**
 * @module Ajv, loaded on first use. Importing it costs about 35 ms and 11 MB at start-up, which a
 * server whose schemas are all Zod (validated by Zod itself) never needs. Ajv is CommonJS, so where
 * the runtime offers a synchronous `require` (Node 20.16+, Bun and Deno, through
 * `process.getBuiltinModule('module')`) it is loaded at the moment a JSON Schema is first
 * compiled, keeping registration synchronous. Elsewhere, `preloadJsonSchemaSupport()` loads it
 * with dynamic imports, to be awaited before the first JSON Schema is registered or validated.
 */
import type { Ajv } from 'ajv';

/** The Ajv classes and plugin toolwire uses. */
export interface AjvModules {
  readonly Ajv: new (options: object) => Ajv;
  readonly Ajv2019: new (options: object) => Ajv;
  readonly Ajv2020: new (options: object) => Ajv;
  readonly addFormats: (ajv: Ajv) => unknown;
}

/** A CommonJS module's main export, whether it arrives as `default` or as the module itself. */
function main<T>(module: unknown): T {
  const m = module as { default?: unknown };
  return (typeof m.default === 'function' ? m.default : m) as T;
}

let loaded: AjvModules | undefined;

type SyncRequire = (id: string) => unknown;

/** A synchronous `require` relative to this file, where the runtime has one. */
function syncRequire(): SyncRequire | undefined {
  const host = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const moduleApi = host?.getBuiltinModule?.('module') as
    { createRequire?: (from: string) => SyncRequire } | undefined;
  return moduleApi?.createRequire?.(import.meta.url);
}

/** Thrown when JSON Schema support is needed before it could be loaded. */
export class JsonSchemaNotLoaded extends Error {
  override readonly name = 'JsonSchemaNotLoaded';
}

/** Ajv, loading it now if needed. Throws {@link JsonSchemaNotLoaded} where it cannot. */
export function ajvModules(): AjvModules {
  if (loaded) return loaded;
  const require = syncRequire();
  if (!require) {
    throw new JsonSchemaNotLoaded(
      'JSON Schema support is not loaded on this runtime: `await preloadJsonSchemaSupport()` (from toolwire) before registering a tool with a JSON Schema',
    );
  }
  loaded = {
    Ajv: main(require('ajv')),
    Ajv2019: main(require('ajv/dist/2019.js')),
    Ajv2020: main(require('ajv/dist/2020.js')),
    addFormats: main(require('ajv-formats')),
  };
  return loaded;
}

/**
 * Loads JSON Schema support (Ajv) now, asynchronously. Only needed on runtimes without a
 * synchronous `require` (see the module notes); harmless elsewhere.
 */
export async function preloadJsonSchemaSupport(): Promise<void> {
  if (loaded) return;
  const [ajv, ajv2019, ajv2020, formats] = await Promise.all([
    import('ajv'),
    import('ajv/dist/2019.js'),
    import('ajv/dist/2020.js'),
    import('ajv-formats'),
  ]);
  loaded ??= {
    Ajv: main(ajv),
    Ajv2019: main(ajv2019),
    Ajv2020: main(ajv2020),
    addFormats: main(formats),
  };
}

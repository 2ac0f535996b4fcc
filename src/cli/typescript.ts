/**
 * @module Running a TypeScript module given to `toolwire serve`. The optional peer dependency
 * `tsx` is used when it can be found (from the module's folder, then from toolwire's): it runs
 * any TypeScript a project compiles, including `./file.js` imports of `.ts` files and enums.
 * Without it, Node's own type stripping is used where the running Node has it (22.18 and later,
 * or 22.6 with --experimental-strip-types), which handles erasable syntax only. Otherwise a
 * usage error says what to install.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from './argValues.js';

/** The part of tsx's APIs used here (`tsx/esm/api` and `tsx/cjs/api`: `register()`). */
interface TsxRegister {
  register: () => unknown;
}

/** True for the file names TypeScript modules have. */
export function isTypeScript(modulePath: string): boolean {
  return /\.[cm]?tsx?$/i.test(modulePath);
}

/** True when this Node runs `.ts` files itself. */
function nodeStripsTypes(): boolean {
  const features = process.features as { typescript?: unknown };
  if (features.typescript) return true;
  return process.execArgv.some((a) => /^--experimental-(strip|transform)-types$/.test(a));
}

/** The file a package's `exports` entry names for `import`, if it is a plain one. */
function importTarget(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  if (typeof entry !== 'object' || entry === null) return undefined;
  const target = (entry as { import?: unknown }).import;
  if (typeof target === 'string') return target;
  const nested = (target as { default?: unknown } | undefined)?.default;
  return typeof nested === 'string' ? nested : undefined;
}

/**
 * tsx's ESM and CommonJS APIs as installed for the module's project, else for toolwire. The ESM
 * API must be imported as ESM (its CommonJS build cannot find its own hooks), so it is located
 * through tsx's package.json `exports` from the module's folder.
 */
async function findTsx(
  moduleFile: string,
): Promise<{ esm: TsxRegister; cjs: TsxRegister } | undefined> {
  for (const from of [moduleFile, import.meta.url]) {
    try {
      const require = createRequire(from);
      const manifest = require.resolve('tsx/package.json');
      const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
        exports?: Record<string, unknown>;
      };
      const esmApi = importTarget(exports?.['./esm/api']);
      if (esmApi === undefined) continue;
      const esm = (await import(
        pathToFileURL(join(dirname(manifest), esmApi)).href
      )) as TsxRegister;
      return { esm, cjs: require('tsx/cjs/api') as TsxRegister };
    } catch {
      // Not installed there (or unusable): try the next place.
    }
  }
  return undefined;
}

/**
 * Makes `import()` of a TypeScript module work in this process; says which way.
 * @param moduleFile the module's absolute path (tsx is looked up from its folder first)
 */
export async function prepareTypeScript(moduleFile: string): Promise<'tsx' | 'node'> {
  const tsx = await findTsx(moduleFile);
  if (tsx) {
    // Both: a .ts file in a package without "type": "module" is compiled as CommonJS.
    tsx.esm.register();
    tsx.cjs.register();
    return 'tsx';
  }
  if (nodeStripsTypes()) return 'node';
  throw new UsageError(
    `serve: ${moduleFile} is TypeScript, which Node ${process.version} cannot run by itself: install tsx (npm install -D tsx), use Node 22.18 or newer, or serve the compiled .js file`,
  );
}

/**
 * The module's exports. A module compiled to CommonJS (tsx, in a package without "type":
 * "module") arrives as `{ default: module.exports }` with `__esModule` set: its own exports are
 * the ones that count.
 */
export function unwrapInterop(loaded: Record<string, unknown>): Record<string, unknown> {
  const inner = loaded['default'];
  if (
    typeof inner === 'object' &&
    inner !== null &&
    (inner as { __esModule?: unknown }).__esModule === true
  )
    return inner as Record<string, unknown>;
  return loaded;
}

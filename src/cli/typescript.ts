/**
 * @module Running a TypeScript module given to `toolwire serve`. The optional peer dependency
 * `tsx` is used when it can be found (from the module's folder, then from toolwire's): it runs
 * any TypeScript a project compiles, including `./file.js` imports of `.ts` files and enums.
 * Without it, Node's own type stripping is used where the running Node has it (22.18 and later,
 * or 22.6 with --experimental-strip-types), which handles erasable syntax only. Otherwise a
 * usage error says what to install.
 */
import { createRequire } from 'node:module';
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

function findTsx(fromFiles: readonly string[]): { esm: TsxRegister; cjs: TsxRegister } | undefined {
  for (const from of fromFiles) {
    try {
      const require = createRequire(from);
      return {
        esm: require('tsx/esm/api') as TsxRegister,
        cjs: require('tsx/cjs/api') as TsxRegister,
      };
    } catch {
      // Not installed there: try the next place.
    }
  }
  return undefined;
}

/**
 * Makes `import()` of a TypeScript module work in this process; says which way.
 * @param moduleFile the module's absolute path (tsx is looked up from its folder first)
 */
export function prepareTypeScript(moduleFile: string): 'tsx' | 'node' {
  const tsx = findTsx([moduleFile, import.meta.url]);
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

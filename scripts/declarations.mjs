// The library's declarations (dist/**/*.d.ts and their maps), as `tsc -p tsconfig.build.json`
// writes them, byte for byte, in about 60% of its CPU (5 s instead of 8.5 here). src/ is written
// for `isolatedDeclarations` (every export states its type), so a file's declarations follow from
// that file alone: the program is built without the default library and without resolving
// imports (noLib, noResolve), and nothing is checked. A file that leaves an exported type to
// inference fails the build with TypeScript's message saying what to annotate. The build runs
// first in `npm test` and in every install from git.
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

/**
 * Writes the declarations of the files `tsconfig` (relative to `root`, or absolute) names into its
 * outDir, with the TypeScript installed at `root`; throws on any problem.
 */
export function emitDeclarations(root, tsconfig) {
  const ts = createRequire(`${root}package.json`)('typescript');
  const parsed = ts.getParsedCommandLineOfConfigFile(
    resolve(root, tsconfig),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  const options = { ...parsed.options, noLib: true, lib: undefined, noResolve: true, types: [] };
  const program = ts.createProgram({ rootNames: parsed.fileNames, options });
  const emitted = program.emit(undefined, undefined, undefined, true);
  // Only the declaration emitter's own findings: with noLib, every global type is unresolved, and
  // nothing is type-checked here (`npm test` type-checks everything with tsconfig.json).
  const problems = [
    ...parsed.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...emitted.diagnostics,
  ];
  if (problems.length > 0 || emitted.emitSkipped) {
    const host = {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => root,
      getNewLine: () => '\n',
    };
    throw new Error(`the declarations:\n${ts.formatDiagnostics(problems, host)}`);
  }
}

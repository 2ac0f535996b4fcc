/**
 * @module Type-checks a project under several compiler configurations in this process, as `tsc -p`
 * would, with the files parsed once for all of them. Four `tsc` processes (one per module
 * resolution, one of them checking every declaration file in full) took ~28 s of CPU for a
 * one-file project; this takes ~10 s (test/integration/pack.test.ts).
 */
import ts from 'typescript';

/** One configuration: its compiler options, and the declaration files to check in full. */
export interface CheckMode {
  readonly name: string;
  readonly options: ts.CompilerOptions;
  /**
   * Declaration files whose path contains this are type-checked in full (as without
   * `skipLibCheck`); other declaration files only as far as the checked files use them.
   */
  readonly checkDeclarationsUnder?: string;
}

/**
 * Checks `files` (absolute paths) in `cwd` under each mode; returns each mode's diagnostics,
 * formatted as tsc prints them (an empty string when there are none).
 */
export function typeCheckModes(
  cwd: string,
  files: readonly string[],
  modes: readonly CheckMode[],
): Record<string, string> {
  // A parsed file depends on the language version and, under the node16/nodenext module kinds,
  // on whether it is an ES module or CommonJS: those make the key. Binding results are kept on
  // the file and do not depend on the program, as in TypeScript's own document registry.
  const parsed = new Map<string, ts.SourceFile>();
  const output: Record<string, string> = {};
  for (const mode of modes) {
    const options: ts.CompilerOptions = { ...mode.options, noEmit: true, skipLibCheck: false };
    const host = ts.createCompilerHost(options);
    host.getCurrentDirectory = () => cwd;
    const read = host.getSourceFile.bind(host);
    const nodeModuleKind =
      options.module !== undefined &&
      options.module >= ts.ModuleKind.Node16 &&
      options.module <= ts.ModuleKind.NodeNext;
    host.getSourceFile = (fileName, language, onError, shouldCreate) => {
      const how = typeof language === 'object' ? language : { languageVersion: language };
      const key = [fileName, how.languageVersion, how.impliedNodeFormat, nodeModuleKind].join('\0');
      let file = parsed.get(key);
      if (!file) {
        file = read(fileName, language, onError, shouldCreate);
        if (file) parsed.set(key, file);
      }
      return file;
    };
    const program = ts.createProgram({ rootNames: [...files], options, host });
    const diagnostics = [
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...program.getSyntacticDiagnostics(),
    ];
    const under = mode.checkDeclarationsUnder;
    for (const file of program.getSourceFiles()) {
      if (!file.isDeclarationFile || (under !== undefined && file.fileName.includes(under))) {
        diagnostics.push(...program.getSemanticDiagnostics(file));
      }
    }
    output[mode.name] = ts.formatDiagnostics(diagnostics, host);
  }
  return output;
}

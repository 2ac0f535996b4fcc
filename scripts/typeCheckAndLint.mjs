// The type-checks (tsconfig.json, as `tsc -p tsconfig.json` checks it, and tsconfig.core.json: the
// runtime-neutral layers without Node types) and ESLint (`eslint --max-warnings=0 .`) in one
// process, sharing what they can: ESLint's type-aware rules ask the checker the type-check has
// already filled, instead of building and checking a program of their own (typescript-eslint's
// `programs` option), and the core is checked by a compiler already loaded and warm (sharing the
// first program's parsed files was slower: its checker then did more). Apart, the three took
// about 120 s of CPU on a 2-core machine; together about 70 s, with the same findings.
//
//   node scripts/typeCheckAndLint.mjs     exit 1 when any of them finds anything
import { ESLint } from 'eslint';
import ts from 'typescript';

const root = process.cwd();

/** The program of a tsconfig, as tsc builds it. */
function programOf(configFile) {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configFile,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (parsed.errors.length > 0) return { errors: parsed.errors };
  return {
    program: ts.createProgram({
      rootNames: parsed.fileNames,
      options: parsed.options,
      projectReferences: parsed.projectReferences,
    }),
  };
}

const formatHost = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => root,
  getNewLine: () => '\n',
};

/** Prints the diagnostics of a config's program; returns how many there were. */
function report(label, built) {
  const diagnostics = built.program ? ts.getPreEmitDiagnostics(built.program) : built.errors;
  if (diagnostics.length > 0) {
    process.stdout.write(ts.formatDiagnostics(diagnostics, formatHost));
    console.log(`${label}: ${diagnostics.length} error(s)`);
  }
  return diagnostics.length;
}

const built = programOf(`${root}/tsconfig.json`);
let errors = report('type-check', built);
errors += report(
  'type-check of the core without Node types (tsconfig.core.json)',
  programOf(`${root}/tsconfig.core.json`),
);

let problems = 0;
if (built.program) {
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false, programs: [built.program] } },
    },
  });
  const results = await eslint.lintFiles(['.']);
  problems = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
  if (problems > 0) {
    const formatter = await eslint.loadFormatter('stylish');
    process.stdout.write(await formatter.format(results));
    console.log(`lint: ${problems} problem(s) (no warning is allowed either)`);
  }
}
process.exitCode = errors > 0 || problems > 0 ? 1 : 0;

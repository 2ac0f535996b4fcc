/**
 * @module Which test file runs in which vitest project, and which projects make the quick lane.
 * Read by vitest.config.ts (the projects), test/support/longestFirst.ts (the order the files
 * start in) and the guard test/contract/lanes.test.ts (which keeps the quick lane in process).
 *
 * The quick lane (`npm run test:quick`) is the edit loop: the unit tests beside the source, the
 * contract tests and the message corpus, all in one process each, with no child process, no
 * listening or connecting socket, no Redis and no browser, and no dependency on the build
 * (`dist/`, `build/`). Everything else runs in `npm test` only. A file under the quick globs that
 * needs a real wire is named in {@link OUT_OF_PROCESS} and runs in the `wired` project instead.
 */

/** A vitest project of the suite. */
export interface Lane {
  /** The project name (`vitest run --project <name>`). */
  readonly name: string;
  /** Which files it runs (globs relative to the repository root). */
  readonly include: readonly string[];
  /** Files of `include` that run elsewhere. */
  readonly exclude: readonly string[];
  /** True for the projects of the quick lane: in process, guarded by test/support/inProcessOnly.ts. */
  readonly quick: boolean;
  /**
   * A guess of one file's duration in seconds, for the first run on a fresh clone (no timings
   * cached yet): the longest files start first, so the slow tail runs beside the short ones.
   */
  readonly estimate: number;
}

/**
 * Files under the quick globs (src/, test/contract/, test/corpus/) that start a process, listen,
 * connect over the network or to Redis, or read the build. Kept short: a new one must say why here.
 */
export const OUT_OF_PROCESS: readonly string[] = [
  // A second process holds the file lock / reads the approvals file.
  'src/cli/approvalsFile.test.ts',
  'src/oauthClient/credentialsLock.test.ts',
  // Model commands run as child processes (and their grandchildren are killed).
  'src/cli/samplingCommand.test.ts',
  'src/cli/console/consoleSession.test.ts',
  // The real browser opener runs (a missing) xdg-open.
  'src/oauthClient/browserOpener.test.ts',
  // Redis.
  'src/transports/http/server/sessions/cluster/cluster.test.ts',
  'test/contract/eventStore.test.ts',
  'test/contract/redisRateLimitStore.test.ts',
  'test/contract/redisTaskStore.test.ts',
  'test/contract/sessionDirectory.test.ts',
  // Real sockets on 127.0.0.1.
  'src/transports/http/shared/network.test.ts',
  'src/oauthClient/loopbackReceiver.test.ts',
  'src/oauthClient/pinnedFetch.test.ts',
  'src/transports/http/server/requestGuards.test.ts',
  // Reads the build: the docs' code blocks import `toolwire`, whose types are dist/*.d.ts.
  'test/contract/docsSnippets.test.ts',
];

/** Files (in any folder) that launch Chromium. */
export const BROWSER: readonly string[] = [
  'test/integration/consoleBrowser.test.ts',
  'test/integration/consoleLogin.test.ts',
  'test/regression/issue-19-console-servers.test.ts',
  'test/regression/issue-19-console-session.test.ts',
  'test/regression/issue-20-console-confirmation.test.ts',
  'test/regression/issue-20-console-screenshot.test.ts',
];

/**
 * The longest files, in seconds (a fresh-clone run on the quiet 2-core machine, issue 21): on a
 * fresh clone, with no timings cached yet, they start first, so that the run does not end waiting
 * on one of them. After a run, vitest's cache of its durations takes over.
 */
export const KNOWN_LONG: Readonly<Record<string, number>> = {
  'test/integration/pack.test.ts': 145,
  'test/regression/issue-20-quick-start.test.ts': 52,
  'test/regression/issue-8-build-once.test.ts': 44,
  'test/integration/cli.test.ts': 35,
  'test/integration/consoleBrowser.test.ts': 35,
  'test/integration/conformanceAuth.test.ts': 29,
  'test/integration/oauthLogin.test.ts': 28,
  'test/integration/bench.test.ts': 22,
  'test/integration/cliConfirm.test.ts': 21,
  'test/integration/conformance.test.ts': 20,
};

/** Every project, in no particular order (the sequencer orders the files). */
export const LANES: readonly Lane[] = [
  {
    name: 'unit',
    include: ['src/**/*.test.ts'],
    exclude: OUT_OF_PROCESS,
    quick: true,
    estimate: 1,
  },
  {
    name: 'contract',
    include: ['test/contract/**/*.test.ts', 'test/corpus/**/*.test.ts'],
    exclude: OUT_OF_PROCESS,
    quick: true,
    estimate: 2,
  },
  { name: 'wired', include: OUT_OF_PROCESS, exclude: [], quick: false, estimate: 5 },
  {
    // They import toolwire by its package name: the build (dist/).
    name: 'examples',
    include: ['examples/**/*.test.ts'],
    exclude: [],
    quick: false,
    estimate: 5,
  },
  {
    name: 'integration',
    include: ['test/integration/**/*.test.ts'],
    exclude: BROWSER,
    quick: false,
    estimate: 15,
  },
  {
    name: 'regression',
    include: ['test/regression/**/*.test.ts'],
    exclude: BROWSER,
    quick: false,
    estimate: 5,
  },
  { name: 'browser', include: BROWSER, exclude: [], quick: false, estimate: 20 },
];

/** The projects of `npm run test:quick`. */
export const QUICK_PROJECTS: readonly string[] = LANES.filter((lane) => lane.quick).map(
  (lane) => lane.name,
);

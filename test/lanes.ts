/**
 * @module Which test file is in which lane, and which lanes make the quick lane. Read by
 * vitest.config.ts and vitest.quick.config.ts (which files each runs),
 * test/support/longestFirst.ts (the order the files start in), test/support/inProcessOnly.ts
 * (which files it guards) and the guard test/contract/lanes.test.ts.
 *
 * The quick lane (`npm run test:quick`) is the edit loop: the unit tests beside the source, the
 * contract tests and the message corpus, all in one process each, with no child process, no
 * listening or connecting socket, no Redis and no browser, and no dependency on the build
 * (`dist/`, `build/`). Everything else runs in `npm test` only: the `wired` lane. A file under the
 * quick globs that needs a real wire is named in {@link OUT_OF_PROCESS} and runs there.
 *
 * The lanes are not Vitest projects: `npm test` runs every file in one project, so that a worker
 * process runs file after file with the modules it has loaded, and the modules are transformed
 * once for all files (as three projects, the last ~50 s ran at 50-80% of the CPU while Vitest
 * started new workers for the in-process projects and transformed `src/` again for them).
 */

/** A lane of the suite. */
export interface Lane {
  /** Its name. */
  readonly name: string;
  /** Which files it runs (globs relative to the repository root). */
  readonly include: readonly string[];
  /** Files of `include` that run elsewhere. */
  readonly exclude: readonly string[];
  /** True for the lanes of the quick lane: in process, guarded by test/support/inProcessOnly.ts. */
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

/**
 * The files that take 2.5 s or more, in seconds, as a fresh-clone `npm test` on the 2-core machine
 * measured them (issue 21, at 0c3026f; vitest's cache of the run's durations,
 * node_modules/.vite/vitest/). On a fresh clone, with no durations cached yet, files start longest
 * first from this table (the others by their lane's estimate), so that the run ends on many short
 * files that keep both cores busy, not waiting on a long one. After a run, vitest's cache of its
 * durations takes over. A stale entry costs only a less even schedule.
 */
export const KNOWN_LONG: Readonly<Record<string, number>> = {
  'test/integration/pack.test.ts': 66.1,
  'test/regression/issue-20-quick-start.test.ts': 43.7,
  'test/integration/consoleBrowser.test.ts': 24.7,
  'test/integration/conformance.test.ts': 20.7,
  'test/integration/oauthLogin.test.ts': 18.1,
  'test/integration/conformanceClient.test.ts': 18,
  'test/integration/conformanceTasks.test.ts': 23.3,
  'test/integration/extTasksInterop.test.ts': 5,
  'test/integration/cli.test.ts': 16.3,
  'test/integration/cliConfirm.test.ts': 16.3,
  'test/regression/issue-19-approvals-bypass.test.ts': 12.5,
  'test/regression/issue-19-http-token-expiry.test.ts': 11.2,
  'test/integration/bench.test.ts': 10.0,
  'test/regression/issue-8-cli-task-status.test.ts': 9.7,
  'test/integration/scaleOut.test.ts': 9.5,
  'test/regression/issue-20-approvals-revoke.test.ts': 9.1,
  'test/integration/sdkV2ServerInterop.test.ts': 8,
  'test/regression/issue-19-logout-revocation.test.ts': 7.8,
  'test/regression/issue-13-start-demo.test.ts': 7.6,
  'test/regression/issue-8-cli-errors.test.ts': 7.6,
  'test/regression/issue-12-cli-unprotected.test.ts': 7.1,
  'test/regression/issue-19-console-session.test.ts': 6.6,
  'test/regression/issue-20-console-confirmation.test.ts': 5.7,
  'src/cli/samplingCommand.test.ts': 5.7,
  'test/regression/issue-9-http-idle-stream.test.ts': 5.6,
  'test/regression/issue-8-cli-usage.test.ts': 5.6,
  'test/regression/issue-20-oauth-example.test.ts': 5.6,
  'test/regression/issue-20-scale-out-example.test.ts': 5.4,
  'test/regression/issue-19-console-servers.test.ts': 5.4,
  'test/integration/consoleLogin.test.ts': 5.3,
  'test/regression/issue-8-cli-refused-reconnect.test.ts': 5.2,
  'test/integration/oauthCli.test.ts': 5.1,
  'test/regression/issue-20-cli-unknown-argument.test.ts': 4.9,
  'test/regression/issue-8-cli-max-message.test.ts': 4.9,
  'test/regression/issue-8-cli-interrupt.test.ts': 4.9,
  'test/regression/issue-19-concurrent-refresh.test.ts': 4.8,
  'test/regression/issue-8-cli-watch.test.ts': 4.8,
  'test/regression/issue-8-cli-serve.test.ts': 4.7,
  'src/cli/approvalsFile.test.ts': 4.5,
  'test/regression/issue-20-readme-snippets.test.ts': 4.4,
  'test/integration/sdkInterop.test.ts': 4.1,
  'test/integration/sdkV2ClientInterop.test.ts': 4,
  'src/server/sanitize/textControls.test.ts': 3.9,
  'test/regression/issue-20-test-output.test.ts': 3.8,
  'test/regression/issue-8-build-once.test.ts': 3.8,
  'test/regression/issue-8-cli-terminal-text.test.ts': 3.7,
  'test/regression/issue-9-tasks-limits.test.ts': 3.6,
  'test/regression/issue-8-pipelining.test.ts': 3.5,
  'test/regression/issue-20-cli-messages.test.ts': 3.2,
  'test/regression/issue-9-tasks-polling.test.ts': 3.2,
  'src/server/tasks/tasks.test.ts': 3.2,
  'test/regression/issue-20-console-screenshot.test.ts': 3.2,
  'test/integration/stdio.test.ts': 2.9,
  'test/contract/redisTaskStore.test.ts': 2.7,
  'test/regression/issue-12-cli-logout.test.ts': 2.5,
};

/** Every project, in no particular order (the sequencer orders the files). */
export const LANES: readonly Lane[] = [
  {
    name: 'unit',
    include: ['src/**/*.test.ts'],
    exclude: OUT_OF_PROCESS,
    quick: true,
    estimate: 0.3,
  },
  {
    name: 'contract',
    include: ['test/contract/**/*.test.ts', 'test/corpus/**/*.test.ts'],
    exclude: OUT_OF_PROCESS,
    quick: true,
    estimate: 0.5,
  },
  {
    // Everything that is not in process. Select a part by path: `npx vitest run test/regression`.
    name: 'wired',
    include: [
      ...OUT_OF_PROCESS,
      // They import toolwire by its package name: the build (dist/).
      'examples/**/*.test.ts',
      'test/integration/**/*.test.ts',
      'test/regression/**/*.test.ts',
    ],
    exclude: [],
    quick: false,
    estimate: 1,
  },
];

/** Whether `file` matches `glob`: the lanes use exact paths and `<folder>/**\/*.test.ts`. */
function matches(glob: string, file: string): boolean {
  const deep = '/**/*.test.ts';
  if (glob.endsWith(deep)) {
    return file.startsWith(`${glob.slice(0, -deep.length)}/`) && file.endsWith('.test.ts');
  }
  if (/[*?[{]/.test(glob)) throw new Error(`test/lanes.ts: a glob the lanes cannot read: ${glob}`);
  return file === glob;
}

/** Whether the test file `file` (relative to the root, with `/`) belongs to `lane`. */
export const inLane = (lane: Lane, file: string): boolean =>
  lane.include.some((glob) => matches(glob, file)) &&
  !lane.exclude.some((glob) => matches(glob, file));

/** The lane of a test file, or undefined for a file of none. */
export const laneOf = (file: string): Lane | undefined => LANES.find((lane) => inLane(lane, file));

/** The lanes of `npm run test:quick`. */
export const QUICK_LANES: readonly Lane[] = LANES.filter((lane) => lane.quick);

import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LANES } from './test/lanes.js';
import LongestFirst from './test/support/longestFirst.js';

// Projects and lanes: test/lanes.ts. `npm test` runs every project (scripts/test.mjs);
// `npm run test:quick` the in-process ones.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker per core but one: a single worker on 2 cores. Most of the
    // long files wait (on child processes, sockets, Redis, a browser), so one file per core keeps
    // the CPU busy through those waits (three at a time overloaded a busy 2-core machine).
    maxWorkers: availableParallelism(),
    setupFiles: ['test/support/validateWire.ts'],
    reporters: ['default'],
    sequence: { sequencer: LongestFirst },
    projects: LANES.map((lane) => ({
      extends: true,
      test: {
        name: lane.name,
        include: [...lane.include],
        exclude: [...lane.exclude],
        // Files share their worker's loaded modules (isolate: false): much of a short file's
        // time is loading the library, the harness and the schemas, once per worker instead of
        // once per file (about 0.5 s of CPU a file, some 140 s over the suite). A file that
        // changes shared state puts it back (environment variables, vi.doMock + resetModules).
        isolate: false,
        ...(lane.quick
          ? { setupFiles: ['test/support/validateWire.ts', 'test/support/inProcessOnly.ts'] }
          : {}),
      },
    })),
  },
});

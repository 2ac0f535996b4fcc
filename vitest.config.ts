import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LANES } from './test/lanes.js';
import LongestFirst from './test/support/longestFirst.js';

// Every test file, in one Vitest project (`npm test`, `npx vitest run <path filter>`); the lanes
// are in test/lanes.ts, and `npm run test:quick` runs the in-process ones (vitest.quick.config.ts).
export default defineConfig({
  test: {
    include: [...new Set(LANES.flatMap((lane) => lane.include))],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker per core but one: a single worker on 2 cores. Most of the
    // long files wait (on child processes, sockets, Redis, a browser), so one file per core keeps
    // the CPU busy through those waits (three at a time overloaded a busy 2-core machine).
    maxWorkers: availableParallelism(),
    // Files share their worker's loaded modules (isolate: false): much of a short file's time is
    // loading the library, the harness and the schemas, once per worker instead of once per file
    // (about 0.5 s of CPU a file, some 140 s over the suite). A file that changes shared state
    // puts it back (environment variables, vi.doMock + resetModules).
    isolate: false,
    // inProcessOnly.ts guards the files of the quick lanes only (test/lanes.ts).
    setupFiles: ['test/support/validateWire.ts', 'test/support/inProcessOnly.ts'],
    reporters: ['default'],
    sequence: { sequencer: LongestFirst },
  },
});

import { defineConfig } from 'vitest/config';
import { OUT_OF_PROCESS, QUICK_LANES } from './test/lanes.js';
import base from './vitest.config.js';

// `npm run test:quick`: the files of the quick lanes (test/lanes.ts), in process. The include and
// exclude lists replace the full suite's (Vite's mergeConfig would append them to it).
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: QUICK_LANES.flatMap((lane) => lane.include),
    exclude: [...OUT_OF_PROCESS],
  },
});

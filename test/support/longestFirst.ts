/**
 * @module The order in which vitest starts test files: longest first, across all projects, so the
 * slow, mostly waiting files (processes, browsers, Redis) overlap the many short ones instead of
 * trailing at the end. A file's length is its duration in vitest's cache of the last run
 * (node_modules/.vite/vitest/), or, on a fresh clone, its known length or its project's estimate
 * (test/lanes.ts).
 * vitest's own order runs project after project by name and, without a cache, larger files first.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { KNOWN_LONG, LANES } from '../lanes.js';

const ESTIMATE_MS = new Map(LANES.map((lane) => [lane.name, lane.estimate * 1000]));

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const length = (spec: TestSpecification): number => {
      const path = relative(this.ctx.config.root, spec.moduleId);
      const last = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
      // A file that failed last time runs first, as vitest does: its result is what one waits for.
      if (last?.failed) return Number.POSITIVE_INFINITY;
      const known = KNOWN_LONG[path];
      return last?.duration ?? (known ? known * 1000 : (ESTIMATE_MS.get(spec.project.name) ?? 0));
    };
    const lengths = new Map(files.map((spec) => [spec, length(spec)]));
    return [...files].sort((a, b) => (lengths.get(b) ?? 0) - (lengths.get(a) ?? 0));
  }
}

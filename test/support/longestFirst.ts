/**
 * @module The order in which vitest starts test files.
 *
 * - The long files (2.5 s or more) first, longest first: the slow, mostly waiting files
 *   (processes, browsers, Redis) overlap everything else instead of trailing at the end.
 * - Then the short files, one lane after another (test/lanes.ts; the in-process lanes of the
 *   quick lane last), longest first within a lane. Whichever short files come last leave the
 *   cores partly idle (their tests wait on timers or child processes); the quick lanes last
 *   measured best on a fresh clone (282 s, against 293 s with them before the short
 *   out-of-process files).
 *
 * A file's length is its duration in vitest's cache of the last run (node_modules/.vite/vitest/),
 * or, on a fresh clone, its known length or its lane's estimate (test/lanes.ts). Vitest's own
 * order, without a cache, runs larger files first.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { KNOWN_LONG, laneOf } from '../lanes.js';

/** Files at least this long start first. */
const LONG_MS = 2500;

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const pathOf = (spec: TestSpecification) =>
      relative(this.ctx.config.root, spec.moduleId).replaceAll('\\', '/');
    const length = (spec: TestSpecification): number => {
      const path = pathOf(spec);
      const last = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
      // A file that failed last time runs first, as vitest does: its result is what one waits for.
      if (last?.failed) return Number.POSITIVE_INFINITY;
      const known = KNOWN_LONG[path];
      return last?.duration ?? (known ? known * 1000 : (laneOf(path)?.estimate ?? 0) * 1000);
    };
    const lengths = new Map(files.map((spec) => [spec, length(spec)]));
    const longestFirst = (a: TestSpecification, b: TestSpecification) =>
      (lengths.get(b) ?? 0) - (lengths.get(a) ?? 0);

    const long: TestSpecification[] = [];
    const byLane = new Map<string, { quick: boolean; files: TestSpecification[] }>();
    for (const spec of files) {
      if ((lengths.get(spec) ?? 0) >= LONG_MS) {
        long.push(spec);
        continue;
      }
      const lane = laneOf(pathOf(spec));
      const name = lane?.name ?? '';
      const group = byLane.get(name) ?? { quick: lane?.quick ?? false, files: [] };
      group.files.push(spec);
      byLane.set(name, group);
    }
    const total = (group: TestSpecification[]) =>
      group.reduce((sum, spec) => sum + (lengths.get(spec) ?? 0), 0);
    const groups = [...byLane.values()]
      .sort((a, b) => Number(a.quick) - Number(b.quick) || total(b.files) - total(a.files))
      .map((group) => group.files.sort(longestFirst));
    return [...long.sort(longestFirst), ...groups.flat()];
  }
}

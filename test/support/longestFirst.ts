/**
 * @module The order in which vitest starts test files.
 *
 * - The long files (2.5 s or more) first, longest first, across all projects: the slow, mostly
 *   waiting files (processes, browsers, Redis) overlap everything else instead of trailing at the
 *   end.
 * - Then the short files, one project after another (the in-process projects of the quick lane
 *   last: they keep both cores busy to the end), longest first within a project. Vitest hands a
 *   worker process on to the next file only when that file is of the same project (files share
 *   the worker's loaded modules, `isolate: false`); a file of another project gets a new process,
 *   which loads vitest, the library and the schemas again (about 1 s of CPU). Interleaving the
 *   projects' short files started a new process for most of them.
 *
 * A file's length is its duration in vitest's cache of the last run (node_modules/.vite/vitest/),
 * or, on a fresh clone, its known length or its project's estimate (test/lanes.ts). Vitest's own
 * order runs project after project by name and, without a cache, larger files first.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { KNOWN_LONG, LANES } from '../lanes.js';

const ESTIMATE_MS = new Map(LANES.map((lane) => [lane.name, lane.estimate * 1000]));
const QUICK = new Set(LANES.filter((lane) => lane.quick).map((lane) => lane.name));
/** Files at least this long start first, in any project. */
const LONG_MS = 2500;

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
    const longestFirst = (a: TestSpecification, b: TestSpecification) =>
      (lengths.get(b) ?? 0) - (lengths.get(a) ?? 0);

    const long: TestSpecification[] = [];
    const byProject = new Map<string, TestSpecification[]>();
    for (const spec of files) {
      if ((lengths.get(spec) ?? 0) >= LONG_MS) {
        long.push(spec);
        continue;
      }
      const group = byProject.get(spec.project.name) ?? [];
      group.push(spec);
      byProject.set(spec.project.name, group);
    }
    const total = (group: TestSpecification[]) =>
      group.reduce((sum, spec) => sum + (lengths.get(spec) ?? 0), 0);
    const groups = [...byProject.entries()]
      .sort(
        ([nameA, a], [nameB, b]) =>
          Number(QUICK.has(nameA)) - Number(QUICK.has(nameB)) || total(b) - total(a),
      )
      .map(([, group]) => group.sort(longestFirst));
    return [...long.sort(longestFirst), ...groups.flat()];
  }
}

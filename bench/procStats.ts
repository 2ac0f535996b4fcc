/**
 * @module What the benchmark reads about a server process from Linux's /proc, without the
 * server's cooperation (so the official SDK and the ceilings are measured the same way): CPU time
 * and resident memory. Linux only.
 */
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time the process has used so far, in nanoseconds: the sum over its threads (the main
 * thread, V8's GC and compiler helpers, libuv's pool) of the time each spent on a CPU, from
 * /proc/<pid>/task/<tid>/schedstat (nanosecond resolution, where /proc/<pid>/stat counts 10 ms
 * ticks). Node's threads live as long as the process, so none of its time is lost with a thread.
 */
export function cpuNs(pid: number): number {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read: nothing to add.
    }
  }
  return total;
}

/** Resident set size of the process now, and its peak, in MiB. */
export function memoryMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

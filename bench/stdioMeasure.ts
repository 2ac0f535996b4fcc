/**
 * @module What the stdio benchmark measures on one server process, whatever the server: the
 * figures and the counts, and {@link measureStdio}, which spawns the server script and drives it.
 * The stdio benchmark (stdio.ts) runs it for every server of one build; the before/after
 * comparison (compare.ts) for the toolwire servers of two builds.
 */
import { LineClient } from './lineClient.js';
import type { Figure, RoundFigures } from './report.js';
import { median, msSince, quantile } from './stats.js';

/** How much of each figure one measurement does. */
export interface StdioCounts {
  sequential: number;
  inFlight: number;
  pipelined: number;
  /** Requests of a measured flood (written without a window, see {@link LineClient.flood}). */
  flood: number;
  lists: number;
  coldStarts: number;
}

/** The counts of a full run, or of a `--quick` smoke run. */
export function stdioCounts(quick: boolean): StdioCounts {
  return quick
    ? { sequential: 100, inFlight: 64, pipelined: 1000, flood: 1000, lists: 3, coldStarts: 1 }
    : {
        sequential: 2000,
        inFlight: 64,
        pipelined: 100_000,
        flood: 20_000,
        lists: 40,
        coldStarts: 4,
      };
}

export const STDIO_FIGURES: Figure[] = [
  { key: 'p50_1', label: 'call p50 (ms), 1 in flight', better: 'lower' },
  { key: 'p99_1', label: 'call p99 (ms), 1 in flight', better: 'lower' },
  { key: 'rps64', label: 'calls/s, 64 in flight', better: 'higher' },
  { key: 'cpuUs64', label: 'server CPU µs per call, 64 in flight', better: 'lower' },
  { key: 'p50_64', label: 'call p50 (ms), 64 in flight', better: 'lower' },
  { key: 'p99_64', label: 'call p99 (ms), 64 in flight', better: 'lower' },
  { key: 'rpsFlood', label: 'calls/s, flood (no window)', better: 'higher' },
  { key: 'cpuUsFlood', label: 'server CPU µs per call, flood (no window)', better: 'lower' },
  { key: 'list1000', label: 'tools/list of 1000 tools (ms)', better: 'lower' },
  { key: 'coldStart', label: 'cold start to first tools/list (ms)', better: 'lower' },
  { key: 'rss', label: 'RSS after the run (MiB)', better: 'lower' },
  { key: 'peakRss', label: 'peak RSS (MiB)', better: 'lower' },
];

const ECHO = { name: 'echo', arguments: { message: 'hello' } };
const call = (c: LineClient) => c.request('tools/call', ECHO);

/** `total` calls from `inFlight` lanes: calls/s and the latency of every call (ms). */
async function pipelined(c: LineClient, inFlight: number, total: number) {
  let sent = 0;
  const latencies: number[] = [];
  const start = process.hrtime.bigint();
  const lane = async () => {
    while (sent < total) {
      sent++;
      const t = process.hrtime.bigint();
      await call(c);
      latencies.push(msSince(t));
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return { rps: total / (msSince(start) / 1000), latencies };
}

/**
 * Spawns `node <nodeFlags> <script>` (a stdio server offering `echo` and 999 more tools) and
 * measures every figure of {@link STDIO_FIGURES} on it.
 */
export async function measureStdio(
  script: string,
  counts: StdioCounts,
  nodeFlags: readonly string[] = [],
): Promise<RoundFigures> {
  const spawnServer = () => new LineClient(process.execPath, [...nodeFlags, script]);
  // Cold start: spawn to the first tools/list answer (after initialize, as a host does).
  const colds: number[] = [];
  for (let i = 0; i < counts.coldStarts; i++) {
    const c = spawnServer();
    await c.initialize();
    await c.request('tools/list');
    colds.push(msSince(c.spawnedAt));
    await c.close();
  }
  const c = spawnServer();
  await c.initialize();
  // Warm-up, the same for every server: the sequential, pipelined and flood paths get hot (JIT)
  // before anything is timed.
  for (let i = 0; i < 500; i++) await call(c);
  await pipelined(c, counts.inFlight, counts.pipelined / 4);
  await c.flood('tools/call', ECHO, counts.flood / 4);
  const sequential: number[] = [];
  for (let i = 0; i < counts.sequential; i++) {
    const t = process.hrtime.bigint();
    await call(c);
    sequential.push(msSince(t));
  }
  let cpuBefore = c.cpuNs();
  const loaded = await pipelined(c, counts.inFlight, counts.pipelined);
  const cpuUs64 = (c.cpuNs() - cpuBefore) / 1000 / counts.pipelined;
  cpuBefore = c.cpuNs();
  const floodMs = await c.flood('tools/call', ECHO, counts.flood);
  const cpuUsFlood = (c.cpuNs() - cpuBefore) / 1000 / counts.flood;
  const lists: number[] = [];
  for (let i = 0; i < counts.lists; i++) {
    const t = process.hrtime.bigint();
    const result = (await c.request('tools/list')) as { tools: unknown[] };
    lists.push(msSince(t));
    if (result.tools.length !== 1000)
      throw new Error(`${script} listed ${result.tools.length} tools`);
  }
  const { rss, peak } = c.memory();
  await c.close();
  return {
    p50_1: quantile(sequential, 0.5),
    p99_1: quantile(sequential, 0.99),
    rps64: loaded.rps,
    cpuUs64,
    p50_64: quantile(loaded.latencies, 0.5),
    p99_64: quantile(loaded.latencies, 0.99),
    rpsFlood: counts.flood / (floodMs / 1000),
    cpuUsFlood,
    list1000: median(lists),
    coldStart: median(colds),
    rss,
    peakRss: peak,
  };
}

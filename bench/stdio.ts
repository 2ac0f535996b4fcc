/**
 * The stdio benchmark: the default toolwire server (Zod schemas, async handlers), the same server
 * with JSON Schemas and synchronous handlers, the default one with a middleware, the official SDK's server with the same tools, and a
 * bare JSON-lines process (the ceiling), the ceiling plus what Zod costs any server (ceiling+Zod:
 * the part of a figure no MCP library can remove from a Zod server), in interleaved rounds (median [min-max] over the rounds,
 * which damps the noise of a shared machine). Each offers `echo` plus 999 generated tools; one
 * client drives them all the same way. Figures: sequential call latency; calls/s, p50/p99 latency
 * and the server's CPU time per call with 64 calls in flight; tools/list of 1000 tools; cold start
 * to the first tools/list answer; RSS after the run.
 */
import { fileURLToPath } from 'node:url';
import { LineClient } from './lineClient.js';
import { runBench, type Figure, type RoundFigures } from './report.js';
import { median, msSince, quantile } from './stats.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const SERVERS = {
  toolwire: { script: here('./servers/toolwireServer.js'), label: 'toolwire async+Zod' },
  'toolwire-sync': {
    script: here('./servers/toolwireJsonServer.js'),
    label: 'toolwire sync+JSON',
  },
  'toolwire-mw': {
    script: here('./servers/toolwireMiddlewareServer.js'),
    label: 'toolwire +middleware',
  },
  sdk: { script: here('./servers/sdkServer.js'), label: 'SDK' },
  ceiling: { script: here('./servers/echoCeiling.js'), label: 'ceiling' },
  'ceiling-zod': { script: here('./servers/zodCeiling.js'), label: 'ceiling+Zod' },
} as const;
type Name = keyof typeof SERVERS;

const quick = process.argv.includes('--quick');
/** Node flags for every server, e.g. BENCH_NODE_FLAGS=--max-semi-space-size=4 (none by default). */
const NODE_FLAGS = (process.env['BENCH_NODE_FLAGS'] ?? '').split(' ').filter(Boolean);
const ROUNDS = quick ? 1 : 5;
const SEQUENTIAL = quick ? 300 : 2000;
const IN_FLIGHT = 64;
const PIPELINED = quick ? 4000 : 100_000;
const LISTS = quick ? 10 : 40;
const COLD_STARTS = quick ? 2 : 4;

const FIGURES: Figure[] = [
  { key: 'p50_1', label: 'call p50 (ms), 1 in flight', better: 'lower' },
  { key: 'p99_1', label: 'call p99 (ms), 1 in flight', better: 'lower' },
  { key: 'rps64', label: 'calls/s, 64 in flight', better: 'higher' },
  { key: 'cpuUs64', label: 'server CPU µs per call, 64 in flight', better: 'lower' },
  { key: 'p50_64', label: 'call p50 (ms), 64 in flight', better: 'lower' },
  { key: 'p99_64', label: 'call p99 (ms), 64 in flight', better: 'lower' },
  { key: 'list1000', label: 'tools/list of 1000 tools (ms)', better: 'lower' },
  { key: 'coldStart', label: 'cold start to first tools/list (ms)', better: 'lower' },
  { key: 'rss', label: 'RSS after the run (MiB)', better: 'lower' },
  { key: 'peakRss', label: 'peak RSS (MiB)', better: 'lower' },
];

const call = (c: LineClient) =>
  c.request('tools/call', { name: 'echo', arguments: { message: 'hello' } });

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

async function measure(name: Name): Promise<RoundFigures> {
  const script = SERVERS[name].script;
  // Cold start: spawn to the first tools/list answer (after initialize, as a host does).
  const colds: number[] = [];
  for (let i = 0; i < COLD_STARTS; i++) {
    const c = new LineClient(process.execPath, [...NODE_FLAGS, script]);
    await c.initialize();
    await c.request('tools/list');
    colds.push(msSince(c.spawnedAt));
    await c.close();
  }
  const c = new LineClient(process.execPath, [...NODE_FLAGS, script]);
  await c.initialize();
  // Warm-up, the same for every server: the sequential and pipelined paths get hot (JIT) before
  // anything is timed.
  for (let i = 0; i < 500; i++) await call(c);
  await pipelined(c, IN_FLIGHT, PIPELINED / 4);
  const sequential: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const t = process.hrtime.bigint();
    await call(c);
    sequential.push(msSince(t));
  }
  const cpuBefore = c.cpuNs();
  const loaded = await pipelined(c, IN_FLIGHT, PIPELINED);
  const cpuUs64 = (c.cpuNs() - cpuBefore) / 1000 / PIPELINED;
  const lists: number[] = [];
  for (let i = 0; i < LISTS; i++) {
    const t = process.hrtime.bigint();
    const result = (await c.request('tools/list')) as { tools: unknown[] };
    lists.push(msSince(t));
    if (result.tools.length !== 1000)
      throw new Error(`${name} listed ${result.tools.length} tools`);
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
    list1000: median(lists),
    coldStart: median(colds),
    rss,
    peakRss: peak,
  };
}

await runBench(
  {
    bench: 'stdio',
    quick,
    rounds: ROUNDS,
    servers: SERVERS,
    figures: FIGURES,
    ratios: [
      { header: 'tw/ceiling', of: 'toolwire', to: 'ceiling' },
      { header: 'tw/SDK', of: 'toolwire', to: 'sdk' },
      { header: 'sync/ceiling', of: 'toolwire-sync', to: 'ceiling' },
      { header: 'tw/ceiling+Zod', of: 'toolwire', to: 'ceiling-zod' },
      { header: '+mw/tw', of: 'toolwire-mw', to: 'toolwire' },
    ],
    note:
      `Server CPU is read from /proc/<pid>/task/*/schedstat (Linux). ${PIPELINED} calls at ${IN_FLIGHT} in flight, ` +
      `${SEQUENTIAL} sequential, ${LISTS} tools/list, ${COLD_STARTS} cold starts per server and round.` +
      (NODE_FLAGS.length > 0 ? ` Servers run with ${NODE_FLAGS.join(' ')}.` : ''),
  },
  (name) => measure(name as Name),
);

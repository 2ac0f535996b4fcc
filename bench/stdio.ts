/**
 * The stdio benchmark: toolwire, the official SDK and a bare JSON-lines echo (the ceiling), side by
 * side in one run, in interleaved rounds (the median of the rounds is reported, which damps the
 * noise of a shared machine). Figures: sequential tools/call latency, pipelined throughput at 16
 * and 64 in flight, tools/list of 1000 tools, cold start to the first tools/list answer, RSS.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LineClient } from './lineClient.js';
import { median, msSince, quantile } from './stats.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const SERVERS = {
  toolwire: here('./servers/toolwireServer.js'),
  sdk: here('./servers/sdkServer.js'),
  ceiling: here('./servers/echoCeiling.js'),
} as const;
type Name = keyof typeof SERVERS;

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 1 : 3;
const SEQUENTIAL = quick ? 300 : 2000;
const PIPELINED = quick ? 2000 : 40_000;
const LISTS = quick ? 20 : 100;
const COLD_STARTS = quick ? 2 : 5;

interface Figures {
  p50: number;
  p99: number;
  rps16: number;
  rps64: number;
  list1000: number;
  coldStart: number;
  rss: number;
  peakRss: number;
}

const call = (c: LineClient) =>
  c.request('tools/call', { name: 'echo', arguments: { message: 'hello' } });

async function pipelined(c: LineClient, inFlight: number, total: number): Promise<number> {
  let sent = 0;
  const start = process.hrtime.bigint();
  const lane = async () => {
    while (sent < total) {
      sent++;
      await call(c);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return total / (msSince(start) / 1000);
}

async function measure(name: Name): Promise<Figures> {
  // Cold start: spawn to the first tools/list answer.
  const colds: number[] = [];
  for (let i = 0; i < COLD_STARTS; i++) {
    const c = new LineClient(process.execPath, [SERVERS[name]]);
    await c.initialize();
    await c.request('tools/list');
    colds.push(msSince(c.spawnedAt));
    await c.close();
  }
  const c = new LineClient(process.execPath, [SERVERS[name]]);
  await c.initialize();
  // Warm-up, the same for every server: both the sequential and the pipelined paths get hot
  // before anything is timed.
  for (let i = 0; i < 500; i++) await call(c);
  await pipelined(c, 16, PIPELINED / 4);
  const latencies: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const t = process.hrtime.bigint();
    await call(c);
    latencies.push(msSince(t));
  }
  const rps16 = await pipelined(c, 16, PIPELINED);
  const rps64 = await pipelined(c, 64, PIPELINED);
  const lists: number[] = [];
  for (let i = 0; i < LISTS; i++) {
    const t = process.hrtime.bigint();
    const result = (await c.request('tools/list')) as { tools: unknown[] };
    lists.push(msSince(t));
    if (result.tools.length !== 1000)
      throw new Error(`${name} listed ${result.tools.length} tools`);
  }
  const { rssMiB, peakMiB } = c.memory();
  await c.close();
  return {
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    rps16,
    rps64,
    list1000: median(lists),
    coldStart: median(colds),
    rss: rssMiB,
    peakRss: peakMiB,
  };
}

const KEYS: Array<[keyof Figures, string, 'lower' | 'higher']> = [
  ['p50', 'sequential call p50 (ms)', 'lower'],
  ['p99', 'sequential call p99 (ms)', 'lower'],
  ['rps16', 'pipelined calls/s, 16 in flight', 'higher'],
  ['rps64', 'pipelined calls/s, 64 in flight', 'higher'],
  ['list1000', 'tools/list of 1000 tools (ms)', 'lower'],
  ['coldStart', 'cold start to first tools/list (ms)', 'lower'],
  ['rss', 'RSS after the run (MiB)', 'lower'],
  ['peakRss', 'peak RSS (MiB)', 'lower'],
];

const rounds: Record<Name, Figures[]> = { toolwire: [], sdk: [], ceiling: [] };
for (let r = 0; r < ROUNDS; r++) {
  for (const name of Object.keys(SERVERS) as Name[]) {
    process.stderr.write(`[bench] round ${r + 1}/${ROUNDS}: ${name}\n`);
    rounds[name].push(await measure(name));
  }
}
const result = Object.fromEntries(
  (Object.keys(rounds) as Name[]).map((name) => [
    name,
    Object.fromEntries(KEYS.map(([k]) => [k, median(rounds[name].map((f) => f[k]))])),
  ]),
) as unknown as Record<Name, Figures>;

const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(3));
const rows = KEYS.map(([k, label, better]) => {
  const t = result.toolwire[k];
  const s = result.sdk[k];
  const c = result.ceiling[k];
  // Ratios read "toolwire is N x": for throughput higher is better, for the rest lower is better.
  return {
    label,
    toolwire: fmt(t),
    sdk: fmt(s),
    ceiling: fmt(c),
    vsCeiling: (t / c).toFixed(2),
    vsSdk: (t / s).toFixed(2),
    better,
  };
});
console.log(`\nstdio benchmark (${ROUNDS} rounds, median; node ${process.version})\n`);
console.log(
  [
    'figure'.padEnd(38),
    'toolwire'.padStart(10),
    'sdk'.padStart(10),
    'ceiling'.padStart(10),
    'tw/ceil'.padStart(8),
    'tw/sdk'.padStart(8),
  ].join(''),
);
for (const r of rows) {
  console.log(
    [
      r.label.padEnd(38),
      r.toolwire.padStart(10),
      r.sdk.padStart(10),
      r.ceiling.padStart(10),
      r.vsCeiling.padStart(8),
      r.vsSdk.padStart(8),
    ].join(''),
  );
}
const checks = [
  [
    'pipelined throughput (16) >= 0.8x ceiling',
    result.toolwire.rps16 >= 0.8 * result.ceiling.rps16,
  ],
  [
    'pipelined throughput (64) >= 0.8x ceiling',
    result.toolwire.rps64 >= 0.8 * result.ceiling.rps64,
  ],
  [
    'tools/list of 1000 tools <= 2x ceiling',
    result.toolwire.list1000 <= 2 * result.ceiling.list1000,
  ],
  ['RSS <= 1.5x ceiling', result.toolwire.rss <= 1.5 * result.ceiling.rss],
  ...KEYS.map(
    ([k, label, better]) =>
      [
        `not slower than the SDK: ${label}`,
        better === 'higher'
          ? result.toolwire[k] >= result.sdk[k]
          : result.toolwire[k] <= result.sdk[k],
      ] as const,
  ),
] as const;
console.log('\ntargets');
for (const [label, ok] of checks) console.log(`  ${ok ? 'met    ' : 'MISSED '} ${label}`);
mkdirSync(here('../../.bench-out'), { recursive: true });
writeFileSync(here('../../.bench-out/stdio.json'), JSON.stringify({ rounds, result }, null, 2));

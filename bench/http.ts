/**
 * The HTTP benchmark: toolwire's Streamable HTTP server, the official SDK's (stateful), and a bare
 * node:http JSON echo (the ceiling), side by side in interleaved rounds (medians reported): calls
 * per second and p50/p99 latency with 1, 16 and 64 concurrent clients (one session each),
 * new-session time, server CPU per call, RSS.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { agentFor, BenchSession, HttpServerProcess } from './httpDriver.js';
import { median, msSince, quantile } from './stats.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const SERVERS = {
  toolwire: { script: here('./servers/httpToolwire.js'), env: {} },
  sdk: { script: here('./servers/httpSdk.js'), env: {} },
  'sdk-json': { script: here('./servers/httpSdk.js'), env: { JSON_RESPONSE: '1' } },
  ceiling: { script: here('./servers/httpCeiling.js'), env: {} },
} as const;
type Name = keyof typeof SERVERS;

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 1 : 3;
const CALLS: Record<number, number> = quick
  ? { 1: 300, 16: 2000, 64: 2000 }
  : { 1: 2000, 16: 12_000, 64: 12_000 };
const NEW_SESSIONS = quick ? 10 : 40;

interface Figures {
  [key: string]: number;
}

async function load(
  sessions: BenchSession[],
  total: number,
): Promise<{ rps: number; latencies: number[] }> {
  let started = 0;
  const latencies: number[] = [];
  const begin = process.hrtime.bigint();
  await Promise.all(
    sessions.map(async (session) => {
      while (started < total) {
        started++;
        const t = process.hrtime.bigint();
        await session.call();
        latencies.push(msSince(t));
      }
    }),
  );
  return { rps: total / (msSince(begin) / 1000), latencies };
}

async function measure(name: Name): Promise<Figures> {
  const server = new HttpServerProcess(SERVERS[name].script, SERVERS[name].env);
  const url = new URL(await server.url);
  const figures: Figures = {};
  try {
    const warm = new BenchSession(url, agentFor(1));
    await warm.open();
    for (let i = 0; i < 500; i++) await warm.call();
    const sessionTimes: number[] = [];
    const agent = agentFor(1);
    for (let i = 0; i < NEW_SESSIONS; i++) {
      const t = process.hrtime.bigint();
      await new BenchSession(url, agent).open();
      sessionTimes.push(msSince(t));
    }
    figures['newSession'] = median(sessionTimes);
    for (const clients of [1, 16, 64]) {
      const shared = agentFor(clients);
      const sessions = Array.from({ length: clients }, () => new BenchSession(url, shared));
      await Promise.all(sessions.map((s) => s.open()));
      await load(sessions, Math.min(1000, CALLS[clients] ?? 1000)); // warm-up at this concurrency
      const cpuBefore = server.cpuMs();
      const { rps, latencies } = await load(sessions, CALLS[clients] ?? 1000);
      const cpuPerCall = ((server.cpuMs() - cpuBefore) * 1000) / (CALLS[clients] ?? 1000);
      figures[`rps${clients}`] = rps;
      figures[`p50_${clients}`] = quantile(latencies, 0.5);
      figures[`p99_${clients}`] = quantile(latencies, 0.99);
      if (clients === 16) figures['cpuUsPerCall'] = cpuPerCall;
    }
    figures['rss'] = server.rssMiB();
  } finally {
    await server.stop();
  }
  return figures;
}

const ROWS: Array<[string, string, 'higher' | 'lower']> = [
  ['rps1', 'calls/s, 1 client', 'higher'],
  ['p50_1', 'p50 ms, 1 client', 'lower'],
  ['p99_1', 'p99 ms, 1 client', 'lower'],
  ['rps16', 'calls/s, 16 clients', 'higher'],
  ['p50_16', 'p50 ms, 16 clients', 'lower'],
  ['p99_16', 'p99 ms, 16 clients', 'lower'],
  ['rps64', 'calls/s, 64 clients', 'higher'],
  ['p50_64', 'p50 ms, 64 clients', 'lower'],
  ['p99_64', 'p99 ms, 64 clients', 'lower'],
  ['newSession', 'new session (ms)', 'lower'],
  ['cpuUsPerCall', 'server CPU per call (µs), 16 clients', 'lower'],
  ['rss', 'server RSS after the run (MiB)', 'lower'],
];

const rounds: Record<Name, Figures[]> = { toolwire: [], sdk: [], 'sdk-json': [], ceiling: [] };
for (let r = 0; r < ROUNDS; r++) {
  for (const name of Object.keys(SERVERS) as Name[]) {
    process.stderr.write(`[bench http] round ${r + 1}/${ROUNDS}: ${name}\n`);
    rounds[name].push(await measure(name));
  }
}
const result = Object.fromEntries(
  (Object.keys(rounds) as Name[]).map((name) => [
    name,
    Object.fromEntries(ROWS.map(([k]) => [k, median(rounds[name].map((f) => f[k] ?? NaN))])),
  ]),
) as Record<Name, Figures>;

const fmt = (v: number | undefined) =>
  v === undefined || Number.isNaN(v)
    ? '-'
    : v >= 100
      ? v.toFixed(0)
      : v >= 10
        ? v.toFixed(1)
        : v.toFixed(2);
const get = (name: Name, key: string) => result[name][key] ?? NaN;
console.log(
  `\nHTTP benchmark (${ROUNDS} rounds, median; node ${process.version}; SDK = official SDK server with SSE responses, sdk-json = its JSON response mode)\n`,
);
console.log(
  [
    'figure'.padEnd(38),
    ...['toolwire', 'sdk', 'sdk-json', 'ceiling', 'tw/ceil', 'tw/sdk', 'tw/sdk-json'].map((h) =>
      h.padStart(11),
    ),
  ].join(''),
);
for (const [key, label] of ROWS) {
  const t = get('toolwire', key);
  console.log(
    [
      label.padEnd(38),
      fmt(t).padStart(11),
      fmt(get('sdk', key)).padStart(11),
      fmt(get('sdk-json', key)).padStart(11),
      fmt(get('ceiling', key)).padStart(11),
      (t / get('ceiling', key)).toFixed(2).padStart(11),
      (t / get('sdk', key)).toFixed(2).padStart(11),
      (t / get('sdk-json', key)).toFixed(2).padStart(11),
    ].join(''),
  );
}
const checks: Array<[string, boolean]> = [
  [
    'calls/s at 16 clients >= 0.6x the ceiling',
    get('toolwire', 'rps16') >= 0.6 * get('ceiling', 'rps16'),
  ],
  [
    'calls/s at 16 clients >= 5x the official SDK (SSE responses)',
    get('toolwire', 'rps16') >= 5 * get('sdk', 'rps16'),
  ],
  [
    'calls/s at 16 clients >= 5x the official SDK (JSON responses)',
    get('toolwire', 'rps16') >= 5 * get('sdk-json', 'rps16'),
  ],
];
console.log('\ntargets');
for (const [label, ok] of checks) console.log(`  ${ok ? 'met    ' : 'MISSED '} ${label}`);
mkdirSync(here('../../.bench-out'), { recursive: true });
writeFileSync(here('../../.bench-out/http.json'), JSON.stringify({ rounds, result }, null, 2));

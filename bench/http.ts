/**
 * The HTTP benchmark: toolwire's Streamable HTTP server (stateful) with Zod schemas and async
 * handlers (the default) and with JSON Schemas and synchronous handlers, the official SDK's
 * (stateful; in its default SSE mode and in its JSON response mode) with the same tools, and a
 * bare node:http server that parses, builds and stringifies each answer (the ceiling), in
 * interleaved rounds (median [min-max] over the rounds). Each client holds its own session over
 * a keep-alive agent. Figures: calls/s and p50/p99 latency with 1, 16 and 64 concurrent clients,
 * the server's CPU time per call at 16 clients, new-session time, RSS after the run.
 */
import { fileURLToPath } from 'node:url';
import { agentFor, BenchSession, HttpServerProcess } from './httpDriver.js';
import { runBench, type Figure, type RoundFigures } from './report.js';
import { median, msSince, quantile } from './stats.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const SERVERS = {
  toolwire: {
    script: here('./servers/httpToolwire.js'),
    env: {},
    label: 'toolwire async+Zod',
  },
  'toolwire-sync': {
    script: here('./servers/httpToolwireJson.js'),
    env: {},
    label: 'toolwire sync+JSON',
  },
  sdk: { script: here('./servers/httpSdk.js'), env: {}, label: 'SDK (SSE)' },
  'sdk-json': {
    script: here('./servers/httpSdk.js'),
    env: { JSON_RESPONSE: '1' },
    label: 'SDK (JSON)',
  },
  ceiling: { script: here('./servers/httpCeiling.js'), env: {}, label: 'ceiling' },
} as const;
type Name = keyof typeof SERVERS;

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 1 : 5;
const CLIENTS = [1, 16, 64] as const;
const CALLS: Record<number, number> = quick
  ? { 1: 300, 16: 2000, 64: 2000 }
  : { 1: 1000, 16: 8000, 64: 8000 };
const NEW_SESSIONS = quick ? 10 : 30;

const FIGURES: Figure[] = [
  ...CLIENTS.flatMap((n): Figure[] => [
    { key: `rps${n}`, label: `calls/s, ${n} client${n > 1 ? 's' : ''}`, better: 'higher' },
    { key: `p50_${n}`, label: `call p50 (ms), ${n} client${n > 1 ? 's' : ''}`, better: 'lower' },
    { key: `p99_${n}`, label: `call p99 (ms), ${n} client${n > 1 ? 's' : ''}`, better: 'lower' },
  ]),
  { key: 'cpuUs16', label: 'server CPU µs per call, 16 clients', better: 'lower' },
  { key: 'newSession', label: 'new session (ms)', better: 'lower' },
  { key: 'rss', label: 'server RSS after the run (MiB)', better: 'lower' },
];

async function load(sessions: BenchSession[], total: number) {
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

async function measure(name: Name): Promise<RoundFigures> {
  const server = new HttpServerProcess(SERVERS[name].script, SERVERS[name].env);
  const url = new URL(await server.url);
  const figures: RoundFigures = {};
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
    for (const clients of CLIENTS) {
      const calls = CALLS[clients] ?? 1000;
      const shared = agentFor(clients);
      const sessions = Array.from({ length: clients }, () => new BenchSession(url, shared));
      await Promise.all(sessions.map((s) => s.open()));
      await load(sessions, Math.min(1000, calls)); // warm-up at this concurrency
      const cpuBefore = server.cpuNs();
      const { rps, latencies } = await load(sessions, calls);
      if (clients === 16) figures['cpuUs16'] = (server.cpuNs() - cpuBefore) / 1000 / calls;
      figures[`rps${clients}`] = rps;
      figures[`p50_${clients}`] = quantile(latencies, 0.5);
      figures[`p99_${clients}`] = quantile(latencies, 0.99);
      shared.destroy();
    }
    figures['rss'] = server.rssMiB();
  } finally {
    await server.stop();
  }
  return figures;
}

await runBench(
  {
    bench: 'http',
    quick,
    rounds: ROUNDS,
    servers: SERVERS,
    figures: FIGURES,
    ratios: [
      { header: 'tw/ceiling', of: 'toolwire', to: 'ceiling' },
      { header: 'tw/SDK SSE', of: 'toolwire', to: 'sdk' },
      { header: 'tw/SDK JSON', of: 'toolwire', to: 'sdk-json' },
      { header: 'sync/ceiling', of: 'toolwire-sync', to: 'ceiling' },
    ],
    note:
      `Server CPU is read from /proc/<pid>/task/*/schedstat (Linux). Calls per client count ` +
      `${CLIENTS.map((n) => `${n}: ${CALLS[n]}`).join(', ')}; ${NEW_SESSIONS} new sessions; ` +
      `one session per client on a keep-alive node:http agent.`,
  },
  (name) => measure(name as Name),
);

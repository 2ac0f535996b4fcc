/**
 * @module What the HTTP benchmark measures on one server process, whatever the server: the
 * figures and the counts, and {@link measureHttp}, which spawns the server script and drives it.
 * The HTTP benchmark (http.ts) runs it for every server of one build; the before/after
 * comparison (compare.ts) for the toolwire servers of two builds.
 */
import { agentFor, BenchSession, HttpServerProcess, type BenchEra } from './httpDriver.js';
import type { Figure, RoundFigures } from './report.js';
import { median, msSince, quantile } from './stats.js';

/** The concurrent clients of each load figure. */
export const HTTP_CLIENTS = [1, 16, 64] as const;

/** How much of each figure one measurement does. */
export interface HttpCounts {
  /** Calls per load figure, by its number of clients. */
  calls: Record<number, number>;
  newSessions: number;
  /**
   * Calls of the first warm-up, and at most this many before each load figure (default 500 and
   * 1000): fewer for a server whose every request costs milliseconds.
   */
  warmCalls?: number;
}

/** The counts of a full run, or of a `--quick` smoke run. */
export function httpCounts(quick: boolean): HttpCounts {
  return quick
    ? { calls: { 1: 300, 16: 2000, 64: 2000 }, newSessions: 10 }
    : { calls: { 1: 1000, 16: 8000, 64: 8000 }, newSessions: 30 };
}

/**
 * `counts` scaled down by `divisor` (every figure still gets at least one call per client), for a
 * server whose every request costs milliseconds: the SDK v2 server builds its 1000 tools anew for
 * each request, and the full counts would take it minutes a round.
 */
export function scaledCounts(counts: HttpCounts, divisor: number): HttpCounts {
  const calls = Object.fromEntries(
    HTTP_CLIENTS.map((n) => [n, Math.max(n, Math.round((counts.calls[n] ?? 1000) / divisor))]),
  );
  return {
    calls,
    newSessions: Math.max(3, Math.round(counts.newSessions / divisor)),
    warmCalls: Math.max(64, Math.round(500 / divisor)),
  };
}

const plural = (n: number) => `${n} client${n > 1 ? 's' : ''}`;

export const HTTP_FIGURES: Figure[] = [
  ...HTTP_CLIENTS.flatMap((n): Figure[] => [
    { key: `rps${n}`, label: `calls/s, ${plural(n)}`, better: 'higher' },
    { key: `p50_${n}`, label: `call p50 (ms), ${plural(n)}`, better: 'lower' },
    { key: `p99_${n}`, label: `call p99 (ms), ${plural(n)}`, better: 'lower' },
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

/**
 * Spawns `node <script>` with `env` (a Streamable HTTP server printing its URL, offering `echo`
 * and 999 more tools) and measures every figure of {@link HTTP_FIGURES} on it, its clients
 * speaking `era` (2026: stateless requests, each with its `_meta`; "new session" is then the
 * time of a first request).
 */
export async function measureHttp(
  script: string,
  env: Record<string, string>,
  counts: HttpCounts,
  era: BenchEra = '2025',
): Promise<RoundFigures> {
  const server = new HttpServerProcess(script, env);
  const url = new URL(await server.url);
  const figures: RoundFigures = {};
  try {
    const warm = new BenchSession(url, agentFor(1), era);
    await warm.open();
    for (let i = 0; i < (counts.warmCalls ?? 500); i++) await warm.call();
    const sessionTimes: number[] = [];
    const agent = agentFor(1);
    for (let i = 0; i < counts.newSessions; i++) {
      const t = process.hrtime.bigint();
      const fresh = new BenchSession(url, agent, era);
      await fresh.open();
      if (era === '2026') await fresh.call();
      sessionTimes.push(msSince(t));
    }
    figures['newSession'] = median(sessionTimes);
    for (const clients of HTTP_CLIENTS) {
      const calls = counts.calls[clients] ?? 1000;
      const shared = agentFor(clients);
      const sessions = Array.from({ length: clients }, () => new BenchSession(url, shared, era));
      await Promise.all(sessions.map((s) => s.open()));
      await load(sessions, Math.min(counts.warmCalls ?? 1000, calls)); // warm-up at this concurrency
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

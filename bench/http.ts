/**
 * The HTTP benchmark: toolwire's Streamable HTTP server (stateful) with Zod schemas and async
 * handlers (the default) and with JSON Schemas and synchronous handlers, the official SDK's
 * (stateful; in its default SSE mode and in its JSON response mode) with the same tools, and a
 * bare node:http server that parses, builds and stringifies each answer (the ceiling), in
 * interleaved rounds (median [min-max] over the rounds). toolwire's server is also driven by
 * 2026-07-28 clients (stateless: every request with its `_meta` and headers, no session), the
 * `2026/2025` ratio against its 2025 sessions, and so is the official SDK v2's 2026 handler
 * (`@modelcontextprotocol/server`'s `createMcpHandler`, which builds a server for each request),
 * the `tw26/SDKv2` ratio; it runs a 25th of the calls (each of its requests costs milliseconds).
 * Each 2025 client holds its own session over a keep-alive agent. Figures (httpMeasure.ts):
 * calls/s and p50/p99 latency with 1, 16 and 64 concurrent clients, the server's CPU time per
 * call at 16 clients, new-session time (2026: a first request), RSS after the run.
 */
import { fileURLToPath } from 'node:url';
import type { BenchEra } from './httpDriver.js';
import {
  HTTP_CLIENTS,
  HTTP_FIGURES,
  httpCounts,
  measureHttp,
  scaledCounts,
  type HttpCounts,
} from './httpMeasure.js';
import { runBench } from './report.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
/**
 * The SDK v2 server runs this fraction of the calls: its handler builds a server of 1000 tools
 * for every request (milliseconds each), and the full counts would take it minutes a round.
 */
const SDK_V2_DIVISOR = 25;
const SERVERS = {
  toolwire: {
    script: here('./servers/httpToolwire.js'),
    env: {},
    label: 'toolwire async+Zod',
  },
  'toolwire-2026': {
    script: here('./servers/httpToolwire.js'),
    env: {},
    era: '2026',
    label: 'toolwire 2026 stateless',
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
  'sdk-v2': {
    script: here('./servers/httpSdkV2.js'),
    env: {},
    era: '2026',
    label: 'SDK v2 2026 stateless',
    divisor: SDK_V2_DIVISOR,
  },
  ceiling: { script: here('./servers/httpCeiling.js'), env: {}, label: 'ceiling' },
} as const satisfies Record<
  string,
  { script: string; env: Record<string, string>; label: string; era?: BenchEra; divisor?: number }
>;
type Name = keyof typeof SERVERS;

const quick = process.argv.includes('--quick');
const counts = httpCounts(quick);
const fewer = scaledCounts(counts, SDK_V2_DIVISOR);

await runBench(
  {
    bench: 'http',
    quick,
    rounds: quick ? 1 : 5,
    servers: SERVERS,
    figures: HTTP_FIGURES,
    ratios: [
      { header: 'tw/ceiling', of: 'toolwire', to: 'ceiling' },
      { header: 'tw/SDK SSE', of: 'toolwire', to: 'sdk' },
      { header: 'tw/SDK JSON', of: 'toolwire', to: 'sdk-json' },
      { header: 'sync/ceiling', of: 'toolwire-sync', to: 'ceiling' },
      { header: '2026/2025', of: 'toolwire-2026', to: 'toolwire' },
      { header: 'tw26/SDKv2', of: 'toolwire-2026', to: 'sdk-v2' },
    ],
    note:
      `Server CPU is read from /proc/<pid>/task/*/schedstat (Linux). Calls per client count ` +
      `${HTTP_CLIENTS.map((n) => `${n}: ${counts.calls[n]}`).join(', ')}; ` +
      `${counts.newSessions} new sessions; one session per client on a keep-alive node:http agent. ` +
      `SDK v2 (2026, a server built per request): 1/${SDK_V2_DIVISOR} of the calls ` +
      `(${HTTP_CLIENTS.map((n) => `${n}: ${fewer.calls[n]}`).join(', ')}).`,
  },
  (name) => {
    const server: {
      script: string;
      env: Record<string, string>;
      era?: BenchEra;
      divisor?: number;
    } = SERVERS[name as Name];
    const served: HttpCounts =
      server.divisor === undefined ? counts : scaledCounts(counts, server.divisor);
    return measureHttp(server.script, server.env, served, server.era);
  },
);

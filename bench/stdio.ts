/**
 * The stdio benchmark: the default toolwire server (Zod schemas, async handlers), the same server
 * with JSON Schemas and synchronous handlers, the default one with a middleware, the official
 * SDK's server with the same tools, and a bare JSON-lines process (the ceiling), the ceiling plus
 * what Zod costs any server (ceiling+Zod: the part of a figure no MCP library can remove from a
 * Zod server), in interleaved rounds (median [min-max] over the rounds, which damps the noise of
 * a shared machine). Each offers `echo` plus 999 generated tools; one client drives them all the
 * same way. Figures (stdioMeasure.ts): sequential call latency; calls/s, p50/p99 latency and the
 * server's CPU time per call with 64 calls in flight (where the client is a bottleneck too);
 * calls/s and server CPU per call in a flood (requests written without a window: server-bound);
 * tools/list of 1000 tools; cold start to the first tools/list answer; RSS after the run.
 */
import { fileURLToPath } from 'node:url';
import { runBench } from './report.js';
import { measureStdio, STDIO_FIGURES, stdioCounts } from './stdioMeasure.js';

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
const counts = stdioCounts(quick);

await runBench(
  {
    bench: 'stdio',
    quick,
    rounds: quick ? 1 : 5,
    servers: SERVERS,
    figures: STDIO_FIGURES,
    ratios: [
      { header: 'tw/ceiling', of: 'toolwire', to: 'ceiling' },
      { header: 'tw/SDK', of: 'toolwire', to: 'sdk' },
      { header: 'sync/ceiling', of: 'toolwire-sync', to: 'ceiling' },
      { header: 'SDK/ceiling', of: 'sdk', to: 'ceiling' },
      { header: 'tw/ceiling+Zod', of: 'toolwire', to: 'ceiling-zod' },
      { header: '+mw/tw', of: 'toolwire-mw', to: 'toolwire' },
    ],
    note:
      `Server CPU is read from /proc/<pid>/task/*/schedstat (Linux). ${counts.pipelined} calls at ` +
      `${counts.inFlight} in flight; a flood of ${counts.flood} calls written without a window ` +
      `(the client only counts the answers); ${counts.sequential} sequential, ${counts.lists} ` +
      `tools/list, ${counts.coldStarts} cold starts per server and round.` +
      (NODE_FLAGS.length > 0 ? ` Servers run with ${NODE_FLAGS.join(' ')}.` : ''),
  },
  (name) => measureStdio(SERVERS[name as Name].script, counts, NODE_FLAGS),
);
